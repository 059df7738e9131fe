// A real Helm chart repository for tests: charts are written as directories (Chart.yaml apiVersion
// v2, values.yaml, a ConfigMap template), packaged by the REAL helm binary (`helm package`), indexed
// by it (`helm repo index <dir> --url <server url>`), and the directory is served by a Node http
// server on 127.0.0.1 (free port), optionally behind basic auth.
//
//   const repo = await startChartRepo({ auth: { username: "u", password: "p" } });
//   await repo.addChart("podinfo", "6.5.0", { appVersion: "6.5.0" });  // packages + re-indexes
//   (test/support/charts.ts adds charts of particular shapes: cert-manager-like, failing hook, ...)
//   repo.url                          // http://127.0.0.1:PORT (index at /index.yaml, charts at /<name>-<version>.tgz)
//   repo.requests.index, repo.requests.charts, repo.requests.byPath["/podinfo-6.5.0.tgz"]
//   await repo.removeChart("podinfo", "6.5.0"); repo.resetCounters(); await repo.close();
//   await repo.goDown(); await repo.comeBack();   // an outage: refused, then back on the same port
//
// helm is $FLOTILLA_TOOLS_DIR/bin/helm (default ~/.cache/flotilla/tools/bin/helm, built by
// `npm run tools`), run through flotilla's helm wrapper (src/binaries/helm) with HELM_CACHE_HOME /
// HELM_CONFIG_HOME / HELM_DATA_HOME under a directory of the test's (so several runs can share them).
// `helmEnv(dir)` and `helmBinary()` are exported so tests can run helm (e.g. `helm pull`) the same way.
import { createReadStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve, sep } from "node:path";
import { runHelm as runHelmBinary } from "../../src/binaries/helm/index.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { listenAgain, stopListening } from "./outage.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

export interface ChartRepoOptions {
  auth?: { username: string; password: string };
  /** Serve HTTPS with this certificate (PEM); a client certificate from `clientCa` is then required. */
  tls?: { certPem: string; keyPem: string; clientCaPem?: string };
}

export interface ChartOptions {
  appVersion?: string;
  description?: string;
  /** Extra or replacement files, relative to the chart directory (e.g. "templates/cm.yaml"); null drops a default one. */
  files?: Record<string, string | null>;
}

export interface ChartRepoRequestCounts {
  total: number;
  unauthorized: number;
  /** GET /index.yaml */
  index: number;
  /** GET *.tgz */
  charts: number;
  /** Per path, e.g. "/index.yaml", "/podinfo-6.5.0.tgz" (401s included). */
  byPath: Record<string, number>;
}

export interface ChartRepo {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  port: number;
  /** The served directory (index.yaml and the .tgz packages). */
  dir: string;
  /** Writes, packages (`helm package`) and re-indexes (`helm repo index`) chart name@version. */
  addChart(name: string, version: string, opts?: ChartOptions): Promise<void>;
  /** Deletes name-version.tgz and re-indexes. */
  removeChart(name: string, version: string): Promise<void>;
  readonly requests: ChartRepoRequestCounts;
  resetCounters(): void;
  /** An outage: stops listening (connections are refused); charts can still be added meanwhile. */
  goDown(): Promise<void>;
  /** Back from goDown(), listening on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

export function helmBinary(): string {
  const helm = join(toolsDir(), "bin", "helm");
  if (!existsSync(helm))
    throw new Error(`helm not found at ${helm}: run \`npm run tools\` (or set FLOTILLA_TOOLS_DIR)`);
  return helm;
}

/** Environment for helm with cache/config/data homes under `dir` (created). */
export function helmEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: dir,
    HELM_CACHE_HOME: join(dir, "cache"),
    HELM_CONFIG_HOME: join(dir, "config"),
    HELM_DATA_HOME: join(dir, "data"),
    HELM_REGISTRY_CONFIG: join(dir, "config", "registry", "config.json"),
    HELM_REPOSITORY_CONFIG: join(dir, "config", "repositories.yaml"),
    HELM_REPOSITORY_CACHE: join(dir, "cache", "repository"),
    KUBECONFIG: join(dir, "kubeconfig"),
  };
  for (const d of [env.HELM_CACHE_HOME!, env.HELM_CONFIG_HOME!, env.HELM_DATA_HOME!]) mkdirSync(d, { recursive: true });
  return env;
}

/** Runs the pinned helm through flotilla's wrapper with `env`'s homes; throws its typed error on failure. */
export async function runHelm(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return (await runHelmBinary(args, { binary: helmBinary(), env: vars, cwd })).stdout;
}

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const VERSION = /^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$/;

export function chartFiles(name: string, version: string, opts: ChartOptions): Record<string, string | null> {
  const chartYaml = [
    "apiVersion: v2",
    `name: ${name}`,
    `version: ${version}`,
    ...(opts.appVersion !== undefined ? [`appVersion: ${JSON.stringify(opts.appVersion)}`] : []),
    `description: ${JSON.stringify(opts.description ?? `Test chart ${name}`)}`,
    "type: application",
    "",
  ].join("\n");
  return {
    "Chart.yaml": chartYaml,
    "values.yaml": "message: hello\n",
    "templates/configmap.yaml": [
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata:",
      "  name: {{ .Release.Name }}-{{ .Chart.Name }}",
      "data:",
      "  chart: {{ .Chart.Name }}-{{ .Chart.Version }}",
      "  message: {{ .Values.message | quote }}",
      "",
    ].join("\n"),
    ...opts.files,
  };
}

export async function startChartRepo(opts: ChartRepoOptions = {}): Promise<ChartRepo> {
  helmBinary(); // fail early and clearly
  const base = makeWorkDir("flotilla-chart-repo-");
  const dir = join(base, "repo");
  const src = join(base, "src");
  mkdirSync(dir, { recursive: true });
  mkdirSync(src, { recursive: true });
  const env = helmEnv(join(base, "helm"));

  const emptyCounts = (): ChartRepoRequestCounts => ({ total: 0, unauthorized: 0, index: 0, charts: 0, byPath: {} });
  const counts = emptyCounts();

  const authorized = (req: IncomingMessage): boolean => {
    if (!opts.auth) return true;
    const [scheme, value] = (req.headers.authorization ?? "").split(" ");
    if (scheme?.toLowerCase() !== "basic" || !value) return false;
    const decoded = Buffer.from(value, "base64").toString("utf8");
    return decoded === `${opts.auth.username}:${opts.auth.password}`;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      path = url.pathname;
    }
    counts.total++;
    counts.byPath[path] = (counts.byPath[path] ?? 0) + 1;
    req.resume();
    if (!authorized(req)) {
      counts.unauthorized++;
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="charts"', "Content-Type": "text/plain" });
      res.end("authentication required\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const file = resolve(dir, "." + path);
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    if (path === "/index.yaml") counts.index++;
    if (path.endsWith(".tgz")) counts.charts++;
    const type = path.endsWith(".yaml") ? "application/x-yaml" : path.endsWith(".tgz") ? "application/gzip" : "";
    res.writeHead(200, {
      "Content-Type": type || "application/octet-stream",
      "Content-Length": String(statSync(file).size),
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  };
  const server: Server = opts.tls
    ? createHttpsServer(
        {
          cert: opts.tls.certPem,
          key: opts.tls.keyPem,
          ...(opts.tls.clientCaPem ? { ca: opts.tls.clientCaPem, requestCert: true, rejectUnauthorized: true } : {}),
        },
        handle,
      )
    : createServer(handle);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${opts.tls ? "https" : "http"}://127.0.0.1:${port}`;

  const reindex = () => runHelm(["repo", "index", dir, "--url", url], env);
  await reindex(); // an empty but valid index.yaml from the start

  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };

  return {
    url,
    port,
    dir,
    requests: counts,
    addChart: (name, version, chartOpts = {}) =>
      serial(async () => {
        if (!NAME.test(name)) throw new Error(`invalid chart name: ${name}`);
        if (!VERSION.test(version)) throw new Error(`invalid chart version: ${version}`);
        const chartDir = join(src, `${name}-${version}`, name);
        rmSync(dirname(chartDir), { recursive: true, force: true });
        for (const [rel, content] of Object.entries(chartFiles(name, version, chartOpts))) {
          if (content === null) continue;
          const p = resolve(chartDir, rel);
          if (!p.startsWith(chartDir + sep)) throw new Error(`chart file outside the chart: ${rel}`);
          mkdirSync(dirname(p), { recursive: true });
          writeFileSync(p, content);
        }
        await runHelm(["package", chartDir, "-d", dir], env);
        await reindex();
      }),
    removeChart: (name, version) =>
      serial(async () => {
        rmSync(join(dir, `${name}-${version}.tgz`), { force: true });
        await reindex();
      }),
    resetCounters: () => {
      Object.assign(counts, emptyCounts());
    },
    goDown: () => stopListening(server),
    comeBack: () => listenAgain(server, port),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(base, { recursive: true, force: true });
    },
  };
}

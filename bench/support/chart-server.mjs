// For bench/vs-flux.bench.mjs: a plain Helm chart repository on loopback, no TypeScript test code. The
// chart is Flux's benchmark app (as test/support/charts.ts benchChart): ConfigMap, ServiceAccount,
// Service and a 0-replica Deployment, packaged and indexed by the real helm binary, served by node:http.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const lines = (...l) => `${l.join("\n")}\n`;
const meta = ["metadata:", "  name: {{ .Release.Name }}", "  namespace: {{ .Release.Namespace }}"];

export const chartFiles = (name, version) => ({
  "Chart.yaml": lines("apiVersion: v2", `name: ${name}`, `version: ${version}`, "type: application"),
  "values.yaml": lines("message: hello"),
  "templates/configmap.yaml": lines(
    ...["apiVersion: v1", "kind: ConfigMap", ...meta, "data:"],
    "  release: {{ .Release.Name }}",
    "  message: {{ .Values.message | quote }}",
  ),
  "templates/serviceaccount.yaml": lines("apiVersion: v1", "kind: ServiceAccount", ...meta),
  "templates/service.yaml": lines(
    ...["apiVersion: v1", "kind: Service", ...meta, "spec:", "  selector:", "    app: {{ .Release.Name }}"],
    ...["  ports:", "    - name: http", "      port: 80", "      targetPort: 8080", "      protocol: TCP"],
  ),
  "templates/deployment.yaml": lines(
    ...["apiVersion: apps/v1", "kind: Deployment", ...meta, "spec:", "  replicas: 0", "  selector:"],
    ...["    matchLabels:", "      app: {{ .Release.Name }}", "  template:", "    metadata:", "      labels:"],
    ...["        app: {{ .Release.Name }}", "    spec:", "      serviceAccountName: {{ .Release.Name }}"],
    ...["      containers:", "        - name: app", "          image: nginx:1.27"],
  ),
});

/** Serves the chart `name`-`version` at http://127.0.0.1:<port>/ (index.yaml and the .tgz); close() stops. */
export async function startChartServer(helm, name = "bench", version = "1.0.0") {
  const dir = mkdtempSync(join(tmpdir(), "vs-flux-charts-"));
  const repo = join(dir, "repo");
  const server = createServer((req, res) => {
    const file = basename(decodeURIComponent(new URL(req.url, "http://x").pathname));
    try {
      const body = readFileSync(join(repo, file));
      res.writeHead(200, { "content-type": file.endsWith(".yaml") ? "text/yaml" : "application/gzip" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    for (const [path, text] of Object.entries(chartFiles(name, version))) {
      mkdirSync(join(dir, name, path, ".."), { recursive: true });
      writeFileSync(join(dir, name, path), text);
    }
    // helm's own directories inside ours: nothing of the user's helm configuration is read or written.
    const env = { ...process.env, HELM_CACHE_HOME: dir, HELM_CONFIG_HOME: dir, HELM_DATA_HOME: dir };
    execFileSync(helm, ["package", join(dir, name), "-d", repo], { env, stdio: "pipe" });
    execFileSync(helm, ["repo", "index", repo, "--url", url], { env, stdio: "pipe" });
  } catch (e) {
    server.close();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`building the chart repository with ${helm}: ${e.stderr ?? e.message}`);
  }
  return {
    url,
    chart: { name, version },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}

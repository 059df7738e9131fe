// docs/guides/kamaji-addon-chain.md, run as written: every `sh` block, in order, by bash, with `flotilla` the
// built CLI and kubectl from the toolchain, on a fleet of its own — `flotilla local add-tenant` is one of the
// guide's steps, and the shared fleet is never grown — with the real `flotilla controller` (Kamaji discovery on),
// a chart repository and a Git repository on loopback. Checked after each step: on tenant1 the chain comes Ready
// in order (the CRD before the Widget, the Widget before the app); the plane added later gets the whole chain
// with nothing else done, and the time from add-tenant to the app Ready there is measured.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { KubeClient } from "../../src/kube/client.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { downFleet } from "../../src/local/fleet-down.js";
import { readFleetState } from "../../src/local/fleet-state.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { runCli } from "../support/cli.js";
import { eventually } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";

const GUIDE = resolve(import.meta.dirname, "../../docs/guides/kamaji-addon-chain.md");
const blocks = [...readFileSync(GUIDE, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const scratch = makeWorkDir("flotilla-addon-chain-");
const dir = join(scratch, "fleet");
const env: NodeJS.ProcessEnv = {};
let controller: ChildProcess | undefined;
let charts: ChartRepo;
let git: GitHttpServer;
let mgmt: KubeClient;
const client = (plane: string) =>
  new KubeClient(endpointFromKubeconfigFile(readFleetState(dir)!.planes.find((p) => p.name === plane)!.kubeconfig));

const CRD = [
  "apiVersion: apiextensions.k8s.io/v1",
  "kind: CustomResourceDefinition",
  "metadata:",
  "  name: widgets.addons.example.com",
  "spec:",
  "  group: addons.example.com",
  "  names: { plural: widgets, singular: widget, kind: Widget, listKind: WidgetList }",
  "  scope: Namespaced",
  "  versions:",
  "    - name: v1",
  "      served: true",
  "      storage: true",
  "      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }",
  "",
].join("\n");

function bash(script: string): Promise<{ code: number; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: scratch,
      env: { ...process.env, ...env },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("error", fail);
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, out });
    });
  });
}

async function step(i: number): Promise<string> {
  const r = await bash(blocks[i]!);
  expect(r.code, `guide block ${i + 1}:\n${blocks[i]}\n${r.out}`).toBe(0);
  return r.out;
}

/** When each link of the chain is there on `plane`: the CRD established, the Widget, the app's ConfigMap. */
async function chainOn(plane: string): Promise<{ crd: boolean; widget: boolean; app?: string }> {
  const c = client(plane);
  const get = <T>(path: string) =>
    c.get<T>(path).catch((err) => (err instanceof NotFoundError ? undefined : Promise.reject(err)));
  const crd = await get<{ status?: { conditions?: { type: string; status: string }[] } }>(
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.addons.example.com",
  );
  const established = !!crd?.status?.conditions?.some((x) => x.type === "Established" && x.status === "True");
  const widget = established && !!(await get("/apis/addons.example.com/v1/namespaces/addons/widgets/blue"));
  const app = await get<{ data: { message: string } }>("/api/v1/namespaces/addons/configmaps/widget-app");
  return { crd: established, widget, app: app?.data.message };
}

const appChild = (cluster: string) => pathOf(SERVED_KINDS.HelmRelease, "tenants", `widget-app-${cluster}`);
async function readyAt(path: string): Promise<boolean> {
  const o = await mgmt
    .get<{ status?: { conditions?: { type: string; status: string }[] } }>(path)
    .catch(() => undefined);
  return !!o?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
}

beforeAll(async () => {
  const up = await runCli(["local", "up", "--tenants", "1", "--dir", dir], { timeoutMs: 300_000 });
  expect(up.code, up.stderr).toBe(0);
  mgmt = client("management");
  charts = await startChartRepo();
  await charts.addChart("widget-crds", "1.0.0", { files: { "crds/widgets.yaml": CRD } });
  await charts.addChart("widget-app", "1.0.0", {
    files: {
      "templates/configmap.yaml": [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata: { name: widget-app }",
        "data: { message: {{ .Values.message | quote }} }",
        "",
      ].join("\n"),
    },
  });
  git = await startGitHttpServer();
  const repo = await git.createRepo("addons");
  await repo.commit(
    {
      "widgets/widget.yaml":
        "apiVersion: addons.example.com/v1\nkind: Widget\nmetadata:\n  name: blue\nspec:\n  color: blue\n",
    },
    "a widget",
  );
  controller = spawn(
    process.execPath,
    [
      "bin/flotilla.js",
      "controller",
      "--kubeconfig",
      readFleetState(dir)!.planes[0]!.kubeconfig,
      "--install-crds",
      "--requeue-dependency=2s",
      "--storage-path",
      join(scratch, "storage"),
      "--storage-addr",
      "127.0.0.1:0",
      "--health-addr",
      "127.0.0.1:0",
    ],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  await eventually(
    "the fleet CRDs served",
    () => mgmt.get(pathOf(SERVED_KINDS.FleetHelmRelease, "tenants")).then(() => true),
    180_000,
    500,
  );
  const bin = join(scratch, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "flotilla"), `#!/bin/sh\nexec "${process.execPath}" "${resolve("bin/flotilla.js")}" "$@"\n`);
  chmodSync(join(bin, "flotilla"), 0o755);
  Object.assign(env, {
    PATH: `${bin}:${join(toolsDir(), "bin")}:${process.env.PATH}`,
    FLEET: dir,
    MGMT: readFleetState(dir)!.planes[0]!.kubeconfig,
    CHARTS_URL: charts.url,
    ADDONS_URL: repo.url,
  });
}, 420_000);

afterAll(async () => {
  controller?.kill("SIGKILL");
  await charts?.close();
  await git?.close();
  await downFleet(dir).catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}, 180_000);

describe("docs/guides/kamaji-addon-chain.md", () => {
  it("runs as written: the chain in order on every tenant plane, and on a plane added later", async () => {
    expect(blocks).toHaveLength(4);
    await step(0);
    await step(1);
    // The app, created first, waits for its chain, naming the step of another kind it waits for.
    const waiting = await eventually(
      "the app waiting for the Widgets on tenant1",
      async () => {
        const o = await mgmt.get<{ status?: { conditions?: { type: string; reason: string; message: string }[] } }>(
          appChild("tenant1"),
        );
        const c = o.status?.conditions?.find((x) => x.type === "Ready");
        return c?.reason === "DependencyNotReady" ? c : undefined;
      },
      240_000,
      1000,
    ).catch(async () => undefined);
    // Caught early (its chain not there yet) it says which Kustomization it waits for; it may also be past it.
    if (waiting) expect(waiting.message).toMatch(/^dependency '(tenants\/widgets-tenant1|HelmRelease|Kustomization)/);
    // In order: whenever the app is there, so is the Widget, and whenever the Widget is, so is the CRD.
    const seen: Awaited<ReturnType<typeof chainOn>>[] = [];
    await eventually(
      "the whole chain on tenant1",
      async () => {
        const s = await chainOn("tenant1");
        seen.push(s);
        return s.app !== undefined && (await readyAt(appChild("tenant1")));
      },
      300_000,
      1000,
    );
    for (const s of seen) {
      if (s.app !== undefined) expect(s.widget).toBe(true);
      if (s.widget) expect(s.crd).toBe(true);
    }
    expect((await chainOn("tenant1")).app).toBe("widgets for tenant1");
    const listed = await step(2);
    expect(listed).toContain("widget-crds");
    expect(listed).toContain("widgets");

    const started = Date.now();
    await step(3);
    const added = Date.now();
    const newSeen: Awaited<ReturnType<typeof chainOn>>[] = [];
    await eventually(
      "the whole chain on tenant2, Ready",
      async () => {
        const s = await chainOn("tenant2");
        newSeen.push(s);
        return s.app !== undefined && (await readyAt(appChild("tenant2")));
      },
      420_000,
      500,
    );
    const ready = Date.now();
    for (const s of newSeen) {
      if (s.app !== undefined) expect(s.widget).toBe(true);
      if (s.widget) expect(s.crd).toBe(true);
    }
    expect((await chainOn("tenant2")).app).toBe("widgets for tenant2");
    console.log(
      `new plane → whole chain Ready: ${((ready - added) / 1000).toFixed(1)} s after add-tenant returned ` +
        `(add-tenant itself ${((added - started) / 1000).toFixed(1)} s)`,
    );
  }, 1_200_000);
});

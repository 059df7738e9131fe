// `flotilla plan` for apps whose source or chart is OCI, against the real registry and the real
// `flotilla controller` (sharded to this file's namespace): a Kustomization reading an OCIRepository
// whose artifact holds a ConfigMap, a HelmRelease of a chart in an OCI HelmRepository, a HelmRelease whose
// chartRef is an OCIRepository and a Kustomization reading another OCIRepository. A local directory
// replacing the first OCIRepository plans each app it renders: the apps reading the other OCIRepositories
// from their current artifacts, the chart version bump pulled from the registry by the OCI client.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import type { FleetPlan } from "../../src/fleet/plan/types.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { CHARTS_PATH, pushChart } from "../support/oci-charts.js";
import { configMapYaml, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const SHARD = "flotilla.dev/shard";
const HELM_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";
const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
let reg: OciRegistry;

const release = (version: string) =>
  [
    "apiVersion: helm.toolkit.fluxcd.io/v2",
    "kind: HelmRelease",
    "metadata:",
    "  name: web",
    `  namespace: ${env.ns}`,
    `  labels: { ${SHARD}: ${env.ns} }`,
    "spec:",
    "  interval: 10m",
    "  timeout: 60s",
    "  chart:",
    `    metadata: { labels: { ${SHARD}: ${env.ns} } }`,
    `    spec: { chart: web, version: "${version}", sourceRef: { kind: HelmRepository, name: oci-charts } }`,
    "",
  ].join("\n");
const addon = (message: string) =>
  [
    "apiVersion: helm.toolkit.fluxcd.io/v2",
    "kind: HelmRelease",
    "metadata:",
    "  name: addon",
    `  namespace: ${env.ns}`,
    `  labels: { ${SHARD}: ${env.ns} }`,
    "spec:",
    "  interval: 10m",
    "  timeout: 60s",
    "  chartRef: { kind: OCIRepository, name: addon-chart }",
    `  values: { message: ${message} }`,
    "",
  ].join("\n");
const inner = (color: string) =>
  [
    "apiVersion: kustomize.toolkit.fluxcd.io/v1",
    "kind: Kustomization",
    "metadata:",
    "  name: inner",
    `  namespace: ${env.ns}`,
    `  labels: { ${SHARD}: ${env.ns} }`,
    "spec:",
    "  interval: 10m",
    "  prune: true",
    "  path: ./",
    "  sourceRef: { kind: OCIRepository, name: inner-src }",
    `  postBuild: { substitute: { color: ${color} } }`,
    "",
  ].join("\n");
const files = (color: string, version: string, message = "one", innerColor = "red") => ({
  "info.yaml": configMapYaml("info", env.ns, { color }),
  "release.yaml": release(version),
  "addon.yaml": addon(message),
  "inner.yaml": inner(innerColor),
});
const writeDir = (f: Record<string, string>) => {
  const dir = makeWorkDir("plan-oci-");
  for (const [path, text] of Object.entries(f)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};

async function create(kind: keyof typeof SERVED_KINDS, name: string, spec: Record<string, unknown>): Promise<void> {
  const k = SERVED_KINDS[kind];
  await mgmt.client.create(pathOf(k, env.ns), {
    apiVersion: `${k.group}/${kind === "HelmRelease" ? "v2" : "v1"}`,
    kind,
    metadata: { name, namespace: env.ns, labels: { [SHARD]: env.ns } },
    spec,
  });
}

const plan = (...args: string[]) =>
  runCli(["plan", "-n", env.ns, "-o", "json", ...args, "--kubeconfig", plane("management").kubeconfig], {
    timeoutMs: 180_000,
  });
const appOf = (p: FleetPlan, name: string) => {
  const a = p.apps.find((x) => x.name === name);
  if (!a) throw new Error(`no plan for ${name} in ${JSON.stringify(p.apps.map((x) => x.name))}`);
  return a;
};

beforeAll(async () => {
  reg = await startOciRegistry();
  await pushChart(reg, "web", "1.0.0", { message: "one" });
  await pushChart(reg, "web", "1.1.0", { message: "two" }); // published, not yet asked for
  env = await startHelmReleaseEnv("planoci");
  await pushFiles({ host: reg.host, repository: "manifests/apps" }, "stable", files("blue", "1.0.0"));
  await create("HelmRepository", "oci-charts", {
    interval: "10m",
    type: "oci",
    insecure: true,
    url: `${reg.url}/${CHARTS_PATH}`,
  });
  await create("OCIRepository", "manifests", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/manifests/apps`,
    ref: { tag: "stable" },
  });
  await pushFiles({ host: reg.host, repository: "manifests/inner" }, "stable", {
    "cm.yaml": configMapYaml("inner-info", env.ns, { color: "${color}" }),
  });
  await create("OCIRepository", "inner-src", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/manifests/inner`,
    ref: { tag: "stable" },
  });
  await create("OCIRepository", "addon-chart", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/${CHARTS_PATH}/web`,
    ref: { tag: "1.0.0" },
    layerSelector: { mediaType: HELM_LAYER, operation: "copy" },
  });
  await create("Kustomization", "apps", {
    interval: "10m",
    prune: true,
    path: "./",
    sourceRef: { kind: "OCIRepository", name: "manifests" },
  });
  await env.waitReady("web");
  await env.waitReady("addon");
  for (const name of ["apps", "inner"])
    await eventually(`Kustomization ${name} Ready`, async () => {
      const ks = await mgmt.client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        pathOf(SERVED_KINDS.Kustomization, env.ns, name),
      );
      return ks.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    });
}, 300_000);

afterAll(async () => {
  await mgmt.client
    .patch(pathOf(SERVED_KINDS.Kustomization, env.ns, "apps"), "merge", { spec: { prune: false } })
    .catch(() => {});
  await mgmt.client
    .patch(pathOf(SERVED_KINDS.Kustomization, env.ns, "inner"), "merge", { spec: { prune: false } })
    .catch(() => {});
  await env?.stop();
  await reg?.stop();
}, 180_000);

describe("flotilla plan with OCI sources and charts", () => {
  it("the OCIRepository replaced by the same files: its reader planned with no change, the unchanged apps it applies not followed", async () => {
    const r = await plan("--source", `OCIRepository/${env.ns}/manifests=${writeDir(files("blue", "1.0.0"))}`);
    expect(r.code, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(p.apps.map((a) => [a.kind, a.name, a.errors, a.change])).toEqual([["Kustomization", "apps", [], []]]);
  });

  it("a changed directory: the ConfigMap's diff, the chart bump pulled from the OCI registry, a chartRef and an OCI Kustomization re-rendered", async () => {
    const dir = writeDir(files("green", "1.1.0", "three", "yellow"));
    const r = await plan("--source", `OCIRepository/${env.ns}/manifests=${dir}`);
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(appOf(p, "apps").change).toContainEqual({
      subject: `ConfigMap/${env.ns}/info`,
      diff: [{ path: "data.color", before: "blue", after: "green" }],
    });
    const web = appOf(p, "web");
    expect(web.errors).toEqual([]);
    expect(web.change).toEqual([
      {
        subject: `ConfigMap/${env.ns}/web-web`,
        diff: [
          { path: "data.chart", before: "web-1.0.0", after: "web-1.1.0" },
          { path: "data.message", before: "one", after: "two" },
        ],
      },
    ]);
    // Rendered from the chartRef OCIRepository's current artifact (web 1.0.0) with the new values.
    expect(appOf(p, "addon").change).toEqual([
      { subject: `ConfigMap/${env.ns}/addon-web`, diff: [{ path: "data.message", before: "one", after: "three" }] },
    ]);
    // Rendered from inner-src's current artifact with the new substitute.
    expect(appOf(p, "inner").change).toEqual([
      { subject: `ConfigMap/${env.ns}/inner-info`, diff: [{ path: "data.color", before: "red", after: "yellow" }] },
    ]);
    // Nothing was applied: the live ConfigMap still says blue.
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${env.ns}/configmaps/info`);
    expect(cm.data.color).toBe("blue");
  });
});

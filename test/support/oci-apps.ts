// Apps on OCI for the CLI e2e files (plan, trace, status, the dashboard), with the real `flotilla
// controller` (sharded to the test namespace) and the real registry: the Kustomization "apps" applies the
// OCIRepository "manifests", whose artifact holds a ConfigMap "info", a HelmRelease "web" of a chart in
// an OCI HelmRepository, a HelmRelease "addon" whose chartRef is the OCIRepository "addon-chart", and a
// Kustomization "inner" reading the OCIRepository "inner-src" (a ConfigMap "inner-info"). All Ready.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { eventually, planeCluster } from "./fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "./helmrelease-env.js";
import { CHARTS_PATH, pushChart } from "./oci-charts.js";
import { configMapYaml, pushFiles } from "./oci-push.js";
import { type OciRegistry, startOciRegistry } from "./oci-registry.js";

const SHARD = "flotilla.dev/shard";
const HELM_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";
const mgmt = planeCluster("management");

const release = (ns: string, version: string) =>
  [
    "apiVersion: helm.toolkit.fluxcd.io/v2",
    "kind: HelmRelease",
    "metadata:",
    "  name: web",
    `  namespace: ${ns}`,
    `  labels: { ${SHARD}: ${ns} }`,
    "spec:",
    "  interval: 10m",
    "  timeout: 60s",
    "  chart:",
    `    metadata: { labels: { ${SHARD}: ${ns} } }`,
    `    spec: { chart: web, version: "${version}", sourceRef: { kind: HelmRepository, name: oci-charts } }`,
    "",
  ].join("\n");
const addon = (ns: string, message: string) =>
  [
    "apiVersion: helm.toolkit.fluxcd.io/v2",
    "kind: HelmRelease",
    "metadata:",
    "  name: addon",
    `  namespace: ${ns}`,
    `  labels: { ${SHARD}: ${ns} }`,
    "spec:",
    "  interval: 10m",
    "  timeout: 60s",
    "  chartRef: { kind: OCIRepository, name: addon-chart }",
    `  values: { message: ${message} }`,
    "",
  ].join("\n");
const inner = (ns: string, color: string) =>
  [
    "apiVersion: kustomize.toolkit.fluxcd.io/v1",
    "kind: Kustomization",
    "metadata:",
    "  name: inner",
    `  namespace: ${ns}`,
    `  labels: { ${SHARD}: ${ns} }`,
    "spec:",
    "  interval: 10m",
    "  prune: true",
    "  path: ./",
    "  sourceRef: { kind: OCIRepository, name: inner-src }",
    `  postBuild: { substitute: { color: ${color} } }`,
    "",
  ].join("\n");
export const ociAppFiles = (ns: string, color: string, version: string, message = "one", innerColor = "red") => ({
  "info.yaml": configMapYaml("info", ns, { color }),
  "release.yaml": release(ns, version),
  "addon.yaml": addon(ns, message),
  "inner.yaml": inner(ns, innerColor),
});
export const writeDir = (f: Record<string, string>) => {
  const dir = makeWorkDir("plan-oci-");
  for (const [path, text] of Object.entries(f)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};

async function create(
  ns: string,
  kind: keyof typeof SERVED_KINDS,
  name: string,
  spec: Record<string, unknown>,
): Promise<void> {
  const k = SERVED_KINDS[kind];
  await mgmt.client.create(pathOf(k, ns), {
    apiVersion: `${k.group}/${kind === "HelmRelease" ? "v2" : "v1"}`,
    kind,
    metadata: { name, namespace: ns, labels: { [SHARD]: ns } },
    spec,
  });
}

export interface OciApps {
  env: HelmReleaseEnv;
  reg: OciRegistry;
  stop(): Promise<void>;
}

export async function startOciApps(prefix: string): Promise<OciApps> {
  const reg = await startOciRegistry();
  await pushChart(reg, "web", "1.0.0", { message: "one" });
  await pushChart(reg, "web", "1.1.0", { message: "two" }); // published, not yet asked for
  const env = await startHelmReleaseEnv(prefix);
  const ns = env.ns;
  await pushFiles({ host: reg.host, repository: "manifests/apps" }, "stable", ociAppFiles(ns, "blue", "1.0.0"));
  await create(ns, "HelmRepository", "oci-charts", {
    interval: "10m",
    type: "oci",
    insecure: true,
    url: `${reg.url}/${CHARTS_PATH}`,
  });
  await create(ns, "OCIRepository", "manifests", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/manifests/apps`,
    ref: { tag: "stable" },
  });
  await pushFiles({ host: reg.host, repository: "manifests/inner" }, "stable", {
    "cm.yaml": configMapYaml("inner-info", env.ns, { color: "${color}" }),
  });
  await create(ns, "OCIRepository", "inner-src", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/manifests/inner`,
    ref: { tag: "stable" },
  });
  await create(ns, "OCIRepository", "addon-chart", {
    interval: "10m",
    insecure: true,
    url: `${reg.url}/${CHARTS_PATH}/web`,
    ref: { tag: "1.0.0" },
    layerSelector: { mediaType: HELM_LAYER, operation: "copy" },
  });
  await create(ns, "Kustomization", "apps", {
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
        pathOf(SERVED_KINDS.Kustomization, ns, name),
      );
      return ks.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    });
  return {
    env,
    reg,
    async stop() {
      await mgmt.client
        .patch(pathOf(SERVED_KINDS.Kustomization, ns, "apps"), "merge", { spec: { prune: false } })
        .catch(() => {});
      await mgmt.client
        .patch(pathOf(SERVED_KINDS.Kustomization, ns, "inner"), "merge", { spec: { prune: false } })
        .catch(() => {});
      await env.stop();
      await reg.stop();
    },
  };
}

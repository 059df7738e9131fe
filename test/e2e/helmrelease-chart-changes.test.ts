// Changes to what a HelmRelease installs, through the real controller and the real helm: a new chart
// name or target namespace uninstalls the old release before installing the new one (helm-controller's
// ReleaseTargetChanged), and the CRD policies — install Create, upgrade Skip by default, CreateReplace —
// decide what happens to the CRDs in the chart's crds/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/kube/errors.js";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
let group: string;
const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** A chart whose crds/ holds one CRD (cluster-scoped: its group is the test's own), v2 adding a field. */
function crdChart(version: string, fields: string[]): Promise<void> {
  const properties = fields.map((f) => `                ${f}:\n                  type: string`).join("\n");
  const crd = [
    "apiVersion: apiextensions.k8s.io/v1",
    "kind: CustomResourceDefinition",
    "metadata:",
    `  name: widgets.${group}`,
    "spec:",
    `  group: ${group}`,
    "  names: {kind: Widget, plural: widgets, singular: widget}",
    "  scope: Namespaced",
    "  versions:",
    "    - name: v1",
    "      served: true",
    "      storage: true",
    "      schema:",
    "        openAPIV3Schema:",
    "          type: object",
    "          properties:",
    "            spec:",
    "              type: object",
    "              properties:",
    properties,
    "",
  ].join("\n");
  return env.charts.addChart("widgets", version, { files: { "crds/widget.yaml": crd } });
}

const crdFields = async () => {
  const crd = await mgmt.client.get<{
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: object } } } } }[] };
  }>(`${CRD_PATH}/widgets.${group}`);
  return Object.keys(crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties).sort();
};

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-chart-changes");
  group = `${env.ns}.flotilla.test`;
  await benchChart(env.charts, "bench", "1.0.0");
  await benchChart(env.charts, "other-bench", "1.0.0");
  await crdChart("1.0.0", ["size"]);
  await crdChart("2.0.0", ["size", "color"]);
}, 120_000);
afterAll(async () => {
  await env?.stop();
  await mgmt.client.delete(`${CRD_PATH}/widgets.${group}`).catch(() => {});
});

const releaseSecrets = async (ns: string, release: string) =>
  (
    await mgmt.client.get<{ items: { metadata: { labels: Record<string, string> } }[] }>(
      `/api/v1/namespaces/${ns}/secrets`,
      {
        labelSelector: `owner=helm,name=${release}`,
      },
    )
  ).items.map((s) => `${s.metadata.labels.version} ${s.metadata.labels.status}`);

describe("HelmRelease chart and target changes", () => {
  it("a new chart name uninstalls the old release, then installs the new chart (not an upgrade across charts)", async () => {
    await env.createRelease("renamed", { name: "bench", version: "1.0.0" });
    await env.waitReady("renamed");
    await mgmt.client.patch(env.hrPath("renamed"), "merge", {
      spec: { chart: { spec: { chart: "other-bench" } } },
    });
    const o = await eventually(
      "installed with the other chart",
      async () => {
        const h = await env.hr("renamed");
        return condOf(h, "Ready")?.status === "True" && h.status?.history?.[0]?.chartName === "other-bench"
          ? h
          : undefined;
      },
      180_000,
      1000,
    );
    expect(condOf(o, "Ready")!.message).toBe(
      `Helm install succeeded for release ${env.ns}/renamed.v1 with chart other-bench@1.0.0`,
    );
    expect(o.status?.history?.map((h) => `${h.chartName} v${h.version}`)).toEqual(["other-bench v1"]);
    expect(await releaseSecrets(env.ns, "renamed")).toEqual(["1 deployed"]);
    const events = await mgmt.client.get<{ items: { reason: string; message: string }[] }>(
      `/api/v1/namespaces/${env.ns}/events`,
    );
    expect(events.items.map((e) => e.message)).toContain(
      `Helm uninstall for release ${env.ns}/renamed succeeded: the release target changed from ${env.ns}/renamed (chart bench) to ${env.ns}/renamed (chart other-bench)`,
    );
  }, 300_000);

  it("a new target namespace uninstalls the release from the old one", async () => {
    const elsewhere = await testNamespace(mgmt.client, "hr-moved-to");
    await env.createRelease("moved", { name: "bench", version: "1.0.0" }, { releaseName: "moved" });
    await env.waitReady("moved");
    await mgmt.client.patch(env.hrPath("moved"), "merge", { spec: { targetNamespace: elsewhere } });
    await eventually(
      "installed in the new namespace",
      async () => (await env.hr("moved")).status?.history?.[0]?.namespace === elsewhere,
      180_000,
      1000,
    );
    await env.waitReady("moved");
    expect(await releaseSecrets(elsewhere, "moved")).toEqual(["1 deployed"]);
    expect(await releaseSecrets(env.ns, "moved")).toEqual([]);
    await expect(mgmt.client.get(`/api/v1/namespaces/${env.ns}/configmaps/moved`)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  }, 300_000);

  it("CRDs: created on install, left alone on upgrade by default, replaced with upgrade.crds CreateReplace", async () => {
    await env.createRelease("crds", { name: "widgets", version: "1.0.0" });
    await env.waitReady("crds");
    expect(await crdFields()).toEqual(["size"]);

    await mgmt.client.patch(env.hrPath("crds"), "merge", { spec: { chart: { spec: { version: "2.0.0" } } } });
    await eventually(
      "upgraded to 2.0.0",
      async () => (await env.hr("crds")).status?.history?.[0]?.chartVersion === "2.0.0",
      180_000,
      1000,
    );
    expect(await crdFields()).toEqual(["size"]);

    await mgmt.client.patch(env.hrPath("crds"), "merge", {
      spec: { upgrade: { crds: "CreateReplace" }, values: { message: "replace the CRDs" } },
    });
    await eventually("the CRD replaced", async () => (await crdFields()).includes("color"), 180_000, 1000);
    expect(await crdFields()).toEqual(["color", "size"]);
  }, 300_000);
});

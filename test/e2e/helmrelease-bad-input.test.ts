// Bad input to a HelmRelease, through the real controller and the real helm: each failure is a status
// naming the chart, version or cluster and what to do, nothing of it is installed, and a healthy
// release on the same controller stays Ready and is still reconciled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchChart, certManagerLike, failingRenderChart, RENDER_FAILURE } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;

/** Positive evidence that the controller still works: a requested reconcile of the healthy release handled, Ready. */
async function healthyStillReconciled(): Promise<void> {
  expect(condOf(await env.requestReconcile("healthy"), "Ready")?.status).toBe("True");
}

const objectsIn = async (ns: string, plural: string, release: string) =>
  (
    await mgmt.client.get<{ items: { metadata: { name: string } }[] }>(`/api/v1/namespaces/${ns}/${plural}`)
  ).items.filter((o) => o.metadata.name.startsWith(release));

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-bad-input");
  await benchChart(env.charts);
  await failingRenderChart(env.charts, "broken", "1.0.0");
  await certManagerLike(env.charts);
  await env.createRelease("healthy", { name: "bench", version: "1.0.0" });
  await env.waitReady("healthy");
}, 420_000);
afterAll(() => env?.stop());

describe("HelmRelease bad input", () => {
  it("a chart version that does not exist: names the chart, the version and the repository", async () => {
    await env.createRelease("noversion", { name: "bench", version: "9.9.9" });
    const o = await env.waitReady("noversion", "False");
    const msg = condOf(o, "Ready")!.message;
    expect(msg).toContain(`HelmChart '${env.ns}/${env.ns}-noversion' is not ready`);
    expect(msg).toContain(
      `no 'bench' chart with version matching '9.9.9' found in HelmRepository '${env.ns}/charts' (${env.charts.url}); it has 1.0.0: ask for one of those, or publish the version`,
    );
    expect(o.status?.history ?? []).toEqual([]);
    expect(await objectsIn(env.ns, "configmaps", `${env.ns}-noversion`)).toEqual([]);
    await healthyStillReconciled();
  }, 240_000);

  it("a chart that fails to render: names the chart and helm's error, installs nothing", async () => {
    await env.createRelease("render", { name: "broken", version: "1.0.0" });
    const o = await env.waitReady("render", "False");
    const msg = condOf(o, "Ready")!.message;
    expect(msg).toContain("broken@1.0.0");
    expect(msg).toContain(RENDER_FAILURE);
    // No release record in Helm's storage, of any status.
    const stored = await mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${env.ns}/secrets`, {
      labelSelector: "owner=helm,name=render",
    });
    expect(stored.items).toEqual([]);
    await healthyStillReconciled();
  }, 240_000);

  it("values that fail the chart's schema: nothing installed; on upgrade the running revision stays", async () => {
    await env.createRelease(
      "schema",
      { name: "cert-manager", version: "v1.10.1" },
      { values: { replicaCount: "two" } },
    );
    const o = await env.waitReady("schema", "False");
    const msg = condOf(o, "Ready")!.message;
    expect(msg).toContain("cert-manager@v1.10.1");
    expect(msg).toContain("replicaCount");
    expect(await objectsIn(env.ns, "services", "schema")).toEqual([]);

    await mgmt.client.patch(env.hrPath("schema"), "merge", { spec: { values: { replicaCount: 1 } } });
    await env.waitReady("schema");
    const revisions = await env.helm(["history", "schema", "-n", env.ns, "-o", "json"]);
    const before = JSON.parse(revisions) as { revision: number; status: string }[];
    await mgmt.client.patch(env.hrPath("schema"), "merge", { spec: { values: { replicaCount: -1 } } });
    const failed = await env.waitReady("schema", "False");
    expect(condOf(failed, "Ready")!.message).toContain("replicaCount");
    const after = JSON.parse(await env.helm(["history", "schema", "-n", env.ns, "-o", "json"])) as typeof before;
    expect(after.at(-1)).toEqual(before.at(-1));
    expect(after.at(-1)!.status).toBe("deployed");
    await healthyStillReconciled();
  }, 360_000);

  it("an unreachable tenant plane: names the kubeconfig Secret and the cluster, ends, and deleting is bounded", async () => {
    const kubeconfig = [
      "apiVersion: v1",
      "kind: Config",
      "clusters: [{name: gone, cluster: {server: 'https://127.0.0.1:9'}}]",
      "users: [{name: u, user: {token: abc}}]",
      "contexts: [{name: gone, context: {cluster: gone, user: u}}]",
      "current-context: gone",
    ].join("\n");
    await mgmt.client.create(`/api/v1/namespaces/${env.ns}/secrets`, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "gone-kubeconfig", namespace: env.ns },
      stringData: { value: kubeconfig },
    });
    await env.createRelease(
      "remote",
      { name: "bench", version: "1.0.0" },
      {
        kubeConfig: { secretRef: { name: "gone-kubeconfig" } },
      },
    );
    const o = await env.waitReady("remote", "False");
    const msg = condOf(o, "Ready")!.message;
    expect(msg).toMatch(/127\.0\.0\.1:9|gone/);
    expect(msg).toContain("gone-kubeconfig");
    await mgmt.client.delete(env.hrPath("remote"));
    await eventually(
      "the HelmRelease on an unreachable cluster deleted",
      () =>
        env.hr("remote").then(
          () => undefined,
          () => true,
        ),
      180_000,
      1000,
    );
    await healthyStillReconciled();
  }, 360_000);

  it("helm missing: the release says the helm engine is not found and how to get it; the controller goes on", async () => {
    const noHelm = await startHelmReleaseEnv("hr-no-helm", {
      // An empty tools directory and a PATH without helm: what a broken image would be.
      env: { ...process.env, FLOTILLA_TOOLS_DIR: makeWorkDir("flotilla-no-tools-"), PATH: "/usr/bin:/bin" },
    });
    try {
      await benchChart(noHelm.charts);
      await noHelm.createRelease("nohelm", { name: "bench", version: "1.0.0" });
      // Ready=False first says the chart is being fetched (a wait); then that helm is missing.
      // The controller runs helm's actions in the resident engine (decision 0042): that is what is missing.
      const helmNotFound =
        /helm engine not found: not at .*\/bin\/helm-engine nor on PATH; build the pinned one with `npm run tools`/;
      await eventually(
        "the release saying helm is not found",
        async () => helmNotFound.test(condOf(await noHelm.waitReady("nohelm", "False"), "Ready")?.message ?? ""),
        180_000,
        1000,
      );
      const stored = await mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${noHelm.ns}/secrets`, {
        labelSelector: "owner=helm",
      });
      expect(stored.items).toEqual([]);
    } finally {
      await noHelm.stop();
    }
    await healthyStillReconciled();
  }, 240_000);
});

// Tenant kubeconfigs as Kamaji hands them out (decision 0044), on tenant1 of the shared fleet: a Secret
// rewritten with a newly issued certificate is picked up within seconds by every consumer — the
// Kustomization's apply, its drift watch and the Cluster probe — while the old credential still works
// (so no 401/403 brought it), and the old connection is closed. WriteLimited planes:
// tenant-write-limited.test.ts; namespace-scoped kubeconfigs: tenant-scoped-kubeconfigs.test.ts; the
// HelmRelease's side: helmrelease-tenant-kubeconfigs.test.ts.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { KubeClient } from "../../src/kube/client.js";
import { clusterPool, fingerprintOf } from "../../src/kube/cluster-pool.js";
import { ForbiddenError } from "../../src/kube/errors.js";
import { endpointFromKubeconfig } from "../../src/kube/kubeconfig.js";
import type { Controller } from "../../src/runtime/controller.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";
import { allowAll, revoke, revokeAll, tenant1, writeKubeconfigSecret } from "../support/tenant-identities.js";

const SHARD = "flotilla.dev/shard";
const suffix = randomBytes(3).toString("hex");
const controllers: Controller[] = [];
let h: KustomizeHarness;
let remoteNs: string;

const writeSecret = (name: string, kubeconfig: string) => writeKubeconfigSecret(h.mgmt, h.ns, name, kubeconfig);

async function createCluster(name: string, secret: string) {
  await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "Cluster",
    metadata: { name, namespace: h.ns, labels: { [SHARD]: h.ns } },
    spec: { kubeConfig: { secretRef: { name: secret } }, interval: "1h" },
  });
}
const getCluster = (name: string) => h.mgmt.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, h.ns, name));
const remoteCm = (name: string) =>
  tenant1.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remoteNs}/configmaps/${name}`);
/** An edit by someone else, from another process: the drift watch ignores this process's own writes. */
const handEdit = (name: string, data: Record<string, string>) =>
  execFileSync(join(toolsDir(), "bin", "kubectl"), [
    ...["--kubeconfig", plane("tenant1").kubeconfig, "-n", remoteNs, "patch", "configmap", name],
    ...["--type", "merge", "-p", JSON.stringify({ data })],
  ]);
const reconciles = async (ks: string) =>
  (await h.getKs(ks)).status?.history?.reduce((n, s) => n + (s.totalReconciliations ?? 0), 0) ?? 0;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "tkc", driftWatch: true });
  await serveFleetCrds(h);
  remoteNs = await testNamespace(tenant1.client, "tkc");
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
}, 180_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await h?.stop();
  await revokeAll();
}, 120_000);

describe("a tenant kubeconfig Secret rewritten with a new certificate", () => {
  it("is used within seconds by the apply, the drift watch and the Cluster probe, and the old connection is closed", async () => {
    const users = { old: `tkc-old-${suffix}`, new: `tkc-new-${suffix}` };
    const kubeconfigs = {
      old: issueKubeconfig("tenant1", { commonName: users.old }),
      new: issueKubeconfig("tenant1", { commonName: users.new }),
    };
    const endpoints = {
      old: endpointFromKubeconfig(kubeconfigs.old, { source: "old" }),
      new: endpointFromKubeconfig(kubeconfigs.new, { source: "new" }),
    };
    await allowAll(users.old);
    await allowAll(users.new);
    await writeSecret("rotating", kubeconfigs.old);
    await h.commit({ "rot/cm.yaml": configMap("rotated", remoteNs, { v: "1" }) }, "v1");
    // Intervals of an hour: only the Secret's rewrite can bring a reconcile or a probe within the test.
    await h.createKs("rot", { path: "./rot", interval: "1h", kubeConfig: { secretRef: { name: "rotating" } } });
    await createCluster("rot", "rotating");
    await h.waitReady("rot", 120_000);
    const probed = await eventually("the Cluster probed", async () => (await getCluster("rot")).status?.lastProbeTime);
    const oldEntry = clusterPool.acquire(endpoints.old);
    await eventually("the drift watch streaming with the old credential", async () => oldEntry.requestsInFlight > 0);
    const reconciled = await reconciles("rot");

    const rewritten = Date.now();
    await writeSecret("rotating", kubeconfigs.new);
    const newFingerprint = fingerprintOf(endpoints.new);
    const seconds = await eventually(
      "the Kustomization reconciled, the Cluster probed and the drift watch streaming, with the new credential",
      async () => {
        const entry = clusterPool.stats().entries.find((e) => e.fingerprint === newFingerprint);
        const ok =
          oldEntry.closed &&
          !oldEntry.connected &&
          entry !== undefined &&
          entry.inFlight > 0 &&
          (await reconciles("rot")) > reconciled &&
          (await getCluster("rot")).status?.lastProbeTime !== probed;
        return ok ? (Date.now() - rewritten) / 1000 : undefined;
      },
      // Generous for a loaded machine: with hour-long intervals, any pickup at all is the Secret watch's.
      120_000,
    );
    console.log(`rotation picked up by apply, drift watch and probe in ${seconds.toFixed(1)} s`);
    expect(clusterPool.stats().entries.find((e) => e.fingerprint === oldEntry.fingerprint)).toBeUndefined();

    // Now the old identity loses everything: the drift watch, on the new one, still puts an edit back.
    await revoke(users.old);
    const denied = await new KubeClient(endpoints.old)
      .get(`/api/v1/namespaces/${remoteNs}/configmaps/rotated`)
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ForbiddenError);
    handEdit("rotated", { v: "edited" });
    await eventually("the hand edit put back", async () => (await remoteCm("rotated")).data.v === "1", 60_000);
    expect((await h.waitReady("rot")).status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
    expect((await getCluster("rot")).status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
  }, 240_000);
});

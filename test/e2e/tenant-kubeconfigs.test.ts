// Tenant kubeconfigs as Kamaji hands them out (decision 0044), on tenant1 of the shared fleet: a Secret
// rewritten with a newly issued certificate is picked up within seconds by every consumer — the
// Kustomization's apply, its drift watch and the Cluster probe — while the old credential still works
// (so no 401/403 brought it), and the old connection is closed. A TenantControlPlane turning WriteLimited
// (Kamaji's status when spec.writePermissions refuse writes; there is no Kamaji controller in the local
// fleet, so the test patches the status as Kamaji would) holds its Cluster's fleet children until writable.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { clusterFor } from "../../src/fleet/kamaji/discovery.js";
import { KubeClient } from "../../src/kube/client.js";
import { clusterPool, fingerprintOf } from "../../src/kube/cluster-pool.js";
import { ForbiddenError } from "../../src/kube/errors.js";
import { endpointFromKubeconfig } from "../../src/kube/kubeconfig.js";
import { tenantControlPlane } from "../../src/local/kamaji.js";
import type { Controller } from "../../src/runtime/controller.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";

const SHARD = "flotilla.dev/shard";
const tenant1 = planeCluster("tenant1");
const suffix = randomBytes(3).toString("hex");
const CRB = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";
const bindings: string[] = [];
const controllers: Controller[] = [];
let h: KustomizeHarness;
let remoteNs: string;

/** Lets `user` do anything on tenant1 (the Cluster probe lists nodes), until revoke(). */
async function allowAll(user: string) {
  await tenant1.client.create(CRB, {
    metadata: { name: user },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
  });
  bindings.push(user);
}
const revoke = (user: string) => tenant1.client.delete(`${CRB}/${user}`);

async function writeSecret(name: string, kubeconfig: string) {
  await h.mgmt.client.apply(
    `/api/v1/namespaces/${h.ns}/secrets/${name}`,
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name },
      data: { value: Buffer.from(kubeconfig).toString("base64") },
    },
    "flotilla-test",
    { force: true },
  );
}

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
const handEdit = (name: string, data: Record<string, string>) => handEditIn(remoteNs, name, data);
const handEditIn = (namespace: string, name: string, data: Record<string, string>) =>
  execFileSync(join(toolsDir(), "bin", "kubectl"), [
    ...["--kubeconfig", plane("tenant1").kubeconfig, "-n", namespace, "patch", "configmap", name],
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
  await h?.mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "ro")).catch(() => {});
  for (const c of controllers) await c.stop();
  await h?.stop();
  for (const b of bindings) await revoke(b).catch(() => {});
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

describe("a TenantControlPlane turning WriteLimited", () => {
  it("marks its Cluster not writable and holds its fleet children until it is writable again", async () => {
    const name = `ro-${suffix}`;
    const tcpPath = pathOf(USED_KINDS.TenantControlPlane, h.ns, name);
    const planeStatus = (status: string) =>
      h.mgmt.client.patch(`${tcpPath}/status`, "merge", { status: { kubernetesResources: { version: { status } } } });
    const secret = await h.copyAdminKubeconfig("tenant1");
    const tcp = tenantControlPlane({ tenant: name, port: 1, kubernetesVersion: "v1.35.0" });
    const created = await h.mgmt.client.create<KubeObject>(pathOf(USED_KINDS.TenantControlPlane, h.ns), {
      ...tcp,
      metadata: { ...tcp.metadata, namespace: h.ns },
    });
    await h.mgmt.client.patch(`${tcpPath}/status`, "merge", {
      status: { kubernetesResources: { version: { status: "Ready" } }, kubeconfig: { admin: { secretName: secret } } },
    });
    // The Cluster Kamaji discovery makes of it (clusterFor), in this file's shard; probed every 3 s.
    const cluster = clusterFor({ ...created, status: { kubeconfig: { admin: { secretName: secret } } } })!;
    cluster.metadata.labels = { ...cluster.metadata.labels, [SHARD]: h.ns, ro: suffix };
    cluster.spec = { ...cluster.spec, interval: "3s", variables: { target_ns: remoteNs } };
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), cluster);
    await h.commit({ "ro/cm.yaml": configMap("ro", "${target_ns}", { v: "1" }) }, "ro v1");
    await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "ro", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        clusterSelector: { matchLabels: { ro: suffix } },
        template: {
          spec: { sourceRef: { kind: "GitRepository", name: "platform" }, path: "./ro", interval: "1h", prune: true },
        },
      },
    });
    await eventually("v1 applied by the child", async () => (await remoteCm("ro")).data.v === "1", 120_000);
    const child = `ro-${name}`;

    await planeStatus("WriteLimited");
    const held = `cluster ${name} not writable: TenantControlPlane ${h.ns}/${name} is WriteLimited (its spec.writePermissions refuse writes): applies are held (child held)`;
    await eventually(
      "the child held for a not writable cluster, the cluster still Ready",
      async () => {
        const fk = await h.mgmt.client.get<FleetKustomization>(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "ro"));
        const c = await getCluster(name);
        const condition = (type: string) => c.status?.conditions?.find((x) => x.type === type);
        return (
          (await h.getKs(child)).spec.suspend &&
          fk.status?.clusters?.find((x) => x.cluster === name)?.message === held &&
          // Still Ready (it answers, reads work): only writing is refused.
          condition("Ready")?.status === "True" &&
          condition("Writable")?.status === "False" &&
          condition("Writable")?.reason === "WriteLimited"
        );
      },
      60_000,
    );

    // A new commit while held; writable again, the child resumes and applies it.
    await h.commit({ "ro/cm.yaml": configMap("ro", "${target_ns}", { v: "2" }) }, "ro v2");
    expect((await h.getKs(child)).spec.suspend).toBe(true);
    await planeStatus("Ready");
    await eventually("v2 applied once writable", async () => (await remoteCm("ro")).data.v === "2", 120_000);
    expect((await h.getKs(child)).spec.suspend).toBe(false);
    await eventually(
      "the Cluster writable again",
      async () => (await getCluster(name)).status?.conditions?.find((x) => x.type === "Writable")?.status === "True",
      60_000,
    );
  }, 300_000);
});

describe("a kubeconfig bound by RBAC to one namespace", () => {
  it("applies there, and the drift watch watches that namespace instead of retrying a refused cluster-wide watch", async () => {
    const user = `tkc-scoped-${suffix}`;
    const scopedNs = await testNamespace(tenant1.client, "tkcns");
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${scopedNs}`;
    await tenant1.client.create(`${rbac}/roles`, {
      metadata: { name: "apps" },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["*"] }],
    });
    await tenant1.client.create(`${rbac}/rolebindings`, {
      metadata: { name: "apps" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "apps" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
    });
    await writeSecret("scoped", issueKubeconfig("tenant1", { commonName: user }));
    await h.commit({ "scoped/cm.yaml": configMap("scoped", scopedNs, { v: "1" }) }, "scoped v1");
    await h.createKs("scoped", { path: "./scoped", interval: "1h", kubeConfig: { secretRef: { name: "scoped" } } });
    await h.waitReady("scoped", 120_000);
    const path = `/api/v1/namespaces/${scopedNs}/configmaps/scoped`;
    expect((await tenant1.client.get<{ data: Record<string, string> }>(path)).data).toEqual({ v: "1" });

    // The user may not list ConfigMaps cluster-wide: only a watch in its namespace can see this edit
    // (the interval is an hour). Edited until put back, as the watch may still be falling back.
    const read = async () => (await tenant1.client.get<{ data: Record<string, string> }>(path)).data.v;
    await eventually(
      "a hand edit put back",
      async () => {
        if ((await read()) === "1") handEditIn(scopedNs, "scoped", { v: "edited" });
        return eventually("put back", async () => (await read()) === "1", 10_000).then(
          () => true,
          () => false,
        );
      },
      120_000,
    );
    expect((await h.waitReady("scoped")).status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
  }, 300_000);
});

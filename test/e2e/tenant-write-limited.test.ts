// A tenant plane made read-only (decision 0044): Kamaji reports a TenantControlPlane whose
// spec.writePermissions refuse writes as status WriteLimited (there is no Kamaji controller in the local
// fleet, so the test patches the status as Kamaji would; the plane behind it is tenant1). Its fleet
// Cluster turns Writable=False and holds its fleet children; a plain Kustomization whose kubeconfig
// Secret is the plane's (Kamaji's label on it) is held with a message; both resume once writable.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { clusterFor } from "../../src/fleet/kamaji/discovery.js";
import type { Controller } from "../../src/runtime/controller.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import {
  createTenantPlane,
  setTenantPlaneStatus,
  tenant1,
  writeKubeconfigSecret,
} from "../support/tenant-identities.js";

const SHARD = "flotilla.dev/shard";
const suffix = randomBytes(3).toString("hex");
const controllers: Controller[] = [];
let h: KustomizeHarness;
let remoteNs: string;

const remoteCm = async (name: string) =>
  (await tenant1.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remoteNs}/configmaps/${name}`)).data
    .v;

const createPlane = (name: string, secret: string) => createTenantPlane(h.mgmt, h.ns, name, secret);
const setPlaneStatus = (name: string, status: string) => setTenantPlaneStatus(h.mgmt, h.ns, name, status);

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "twl", driftWatch: true });
  await serveFleetCrds(h);
  remoteNs = await testNamespace(tenant1.client, "twl");
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
}, 180_000);

afterAll(async () => {
  await h?.mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "ro")).catch(() => {});
  for (const c of controllers) await c.stop();
  await h?.stop();
}, 120_000);

describe("a TenantControlPlane turning WriteLimited", () => {
  it("marks its Cluster not writable and holds its fleet children until it is writable again", async () => {
    const name = `ro-${suffix}`;
    const secret = await h.copyAdminKubeconfig("tenant1");
    const created = await createPlane(name, secret);
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
    await eventually("v1 applied by the child", async () => (await remoteCm("ro")) === "1", 120_000);
    const child = `ro-${name}`;

    await setPlaneStatus(name, "WriteLimited");
    const held = `cluster ${name} not writable: TenantControlPlane ${h.ns}/${name} is WriteLimited (its spec.writePermissions refuse writes): applies are held (child held)`;
    const getCluster = () => h.mgmt.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, h.ns, name));
    await eventually(
      "the child held for a not writable cluster, the cluster still Ready",
      async () => {
        const fk = await h.mgmt.client.get<FleetKustomization>(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "ro"));
        const c = await getCluster();
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
    await setPlaneStatus(name, "Ready");
    await eventually("v2 applied once writable", async () => (await remoteCm("ro")) === "2", 120_000);
    expect((await h.getKs(child)).spec.suspend).toBe(false);
    await eventually(
      "the Cluster writable again",
      async () => (await getCluster()).status?.conditions?.find((x) => x.type === "Writable")?.status === "True",
      60_000,
    );
  }, 300_000);

  it("holds a plain Kustomization whose kubeconfig Secret is the plane's, with a message, and releases it", async () => {
    const name = `wl-${suffix}`;
    // The plane's Secret as Kamaji labels it; the Kustomization has no Cluster object to read.
    await writeKubeconfigSecret(h.mgmt, h.ns, `${name}-kubeconfig`, readFileSync(plane("tenant1").kubeconfig, "utf8"), {
      "kamaji.clastix.io/name": name,
    });
    await createPlane(name, `${name}-kubeconfig`);
    await h.commit({ "wl/cm.yaml": configMap("wl", remoteNs, { v: "1" }) }, "wl v1");
    const kubeConfig = { secretRef: { name: `${name}-kubeconfig` } };
    await h.createKs("wl", { path: "./wl", interval: "1h", kubeConfig });
    await h.waitReady("wl", 120_000);
    expect(await remoteCm("wl")).toBe("1");

    await setPlaneStatus(name, "WriteLimited");
    // Only the commit brings a reconcile (hour-long interval): it must stop at the hold, not apply.
    await h.commit({ "wl/cm.yaml": configMap("wl", remoteNs, { v: "2" }) }, "wl v2");
    const ready = await eventually(
      "the Kustomization held",
      async () => {
        const c = (await h.getKs("wl")).status?.conditions?.find((x) => x.type === "Ready");
        return c?.reason === "WriteLimited" ? c : undefined;
      },
      120_000,
    );
    expect(ready).toMatchObject({
      status: "False",
      message: `TenantControlPlane ${h.ns}/${name} is WriteLimited (its spec.writePermissions refuse writes): applies are held until it accepts writes (kubeconfig secret '${h.ns}/${name}-kubeconfig')`,
    });
    expect(await remoteCm("wl")).toBe("1");

    const released = Date.now();
    await setPlaneStatus(name, "Ready");
    await eventually("v2 applied once writable", async () => (await remoteCm("wl")) === "2", 120_000);
    console.log(
      `plain Kustomization released ${((Date.now() - released) / 1000).toFixed(1)} s after the plane was Ready`,
    );
    expect((await h.waitReady("wl")).status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
  }, 300_000);
});

// What fleet-cluster-removal shares: two clusters in the harness's namespace — plane1, a Kamaji
// TenantControlPlane (tenant1's real admin kubeconfig) that discovery turns into a Cluster, and tenant2, a
// Cluster written by hand — one namespace of the same name on both planes, the apps in the platform
// repository, and readers for the fleet object's removal condition and the planes' ConfigMaps.
import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { eventually, planeCluster } from "./fleet-context.js";
import type { KustomizeHarness } from "./kustomize-harness.js";
import { clusterCrd } from "../../src/api/fleet/cluster.js";
import { fleetKustomizationCrd } from "../../src/api/fleet/fleet-kustomization.js";

export const SHARD = "flotilla.dev/shard";
/** The label plane1's TenantControlPlane carries, copied onto its Cluster, that the fleet object selects. */
export const LABEL = "addons";
/** The namespace every app lands in, on both planes. */
export const REMOTE = `fleetrm-${randomBytes(3).toString("hex")}`;
const planes = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };

const cm = (name: string, by: string) =>
  ["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`, "data:", `  by: ${by}`, ""].join("\n");

export async function removalEnv(h: KustomizeHarness): Promise<void> {
  const mgmt = h.mgmt.client;
  for (const p of Object.values(planes)) {
    await p.client.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: REMOTE } });
    afterAll(() => p.client.delete(`/api/v1/namespaces/${REMOTE}`).catch(() => {}));
  }
  const [plane1Secret, tenant2Secret] = [
    await h.copyAdminKubeconfig("tenant1"),
    await h.copyAdminKubeconfig("tenant2"),
  ];
  const tcp = pathOf(USED_KINDS.TenantControlPlane, h.ns);
  await mgmt.create(tcp, {
    apiVersion: "kamaji.clastix.io/v1alpha1",
    kind: "TenantControlPlane",
    metadata: { name: "plane1", namespace: h.ns, labels: { [SHARD]: h.ns, [LABEL]: "on" } },
    spec: { kubernetes: { version: "v1.36.3" } },
  });
  await mgmt.patch(`${tcp}/plane1/status`, "merge", {
    status: {
      kubernetesResources: { version: { version: "v1.36.3", status: "Ready" } },
      kubeconfig: { admin: { secretName: plane1Secret } },
    },
  });
  await mgmt.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "Cluster",
    metadata: { name: "tenant2", namespace: h.ns, labels: { [SHARD]: h.ns } },
    spec: { kubeConfig: { secretRef: { name: tenant2Secret, key: "admin.conf" } }, interval: "10s" },
  });
  await h.commit(
    {
      "app/cm.yaml": cm("app-${cluster_name}", "fleet"),
      "collide/cm.yaml": cm("collide-${cluster_name}", "fleet"),
      "hand/cm.yaml": cm("hand-made", "hand"),
    },
    "the fleet's apps and a hand-made one",
  );
}

export async function createFk(
  h: KustomizeHarness,
  name: string,
  clusterSelector: Record<string, unknown>,
  path: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const fk = {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "FleetKustomization",
    metadata: { name, namespace: h.ns, labels: { [SHARD]: h.ns } },
    spec: {
      clusterSelector,
      ...extra,
      template: {
        spec: {
          sourceRef: { kind: "GitRepository", name: "platform" },
          path,
          targetNamespace: REMOTE,
          interval: "1m",
          prune: true,
        },
      },
    },
  } as KubeObject;
  await currentFleetCrds(h);
  await h.mgmt.client.apply(pathOf(SERVED_KINDS.FleetKustomization, h.ns, name), fk, "flotilla-test");
}

/** The fleet CRDs as this code defines them, applied again: a process of another version may have installed its own. */
export async function currentFleetCrds(h: KustomizeHarness): Promise<void> {
  for (const crd of [clusterCrd(), fleetKustomizationCrd()])
    await h.mgmt.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
}

export const fkOf = (h: KustomizeHarness, name: string) =>
  h.mgmt.client.get<FleetKustomization>(pathOf(SERVED_KINDS.FleetKustomization, h.ns, name));

/** A ConfigMap in REMOTE on a plane, or undefined. */
export async function onPlane(plane: keyof typeof planes, name: string): Promise<KubeObject | undefined> {
  try {
    return await planes[plane].client.get<KubeObject>(`/api/v1/namespaces/${REMOTE}/configmaps/${name}`);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Waits for the fleet object's ClusterRemovalPending condition naming `cluster`; returns when it says the child goes. */
export async function pendingRelease(h: KustomizeHarness, fk: string, cluster: string) {
  return eventually(
    `${fk}'s ClusterRemovalPending naming ${cluster}`,
    async () => {
      const c = (await fkOf(h, fk)).status?.conditions?.find((x) => x.type === "ClusterRemovalPending");
      const until = c?.status === "True" && c.message.match(new RegExp(`cluster ${cluster} [^;]* kept until ([^;]+);`));
      return until ? { message: c.message, releaseAt: Date.parse(until[1]!) } : undefined;
    },
    60_000,
  );
}

export async function childGone(h: KustomizeHarness, name: string): Promise<void> {
  await eventually(
    `child ${name} gone`,
    async () => {
      try {
        await h.getKs(name);
        return false;
      } catch (err) {
        return err instanceof NotFoundError;
      }
    },
    180_000,
  );
}

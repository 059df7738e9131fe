// A tenant's FleetKustomization whose template reads another namespace's GitRepository, against the real
// controller process under Flux's lockdown flags. With a fallbackPath the fleet controller itself would
// look into that source's artifact to pick each cluster's path — telling the tenant which directories
// another tenant's repository has (the child's path is the answer). --no-cross-namespace-refs refuses it
// as it refuses a Kustomization's sourceRef: Stalled, AccessDenied, and no child made from the look.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { FLEET_KUSTOMIZATION_LABEL } from "../../src/fleet/fleetkustomization/kind.js";
import { eventually } from "../support/fleet-context.js";
import { type HostileFleet, mgmt, startHostileFleet } from "../support/hostile-tenants.js";

let f: HostileFleet;
const SHARD = "flotilla.dev/shard";
let shard: string;

beforeAll(async () => {
  f = await startHostileFleet("fleetxns");
  const repo = await mgmt.client.get<{ metadata: { labels: Record<string, string> } }>(
    pathOf(SERVED_KINDS.GitRepository, f.attacker.ns, "repo"),
  );
  shard = repo.metadata.labels[SHARD]!;
  // A Ready Cluster in the attacker's namespace (tenant1's admin kubeconfig), so children would be made.
  const kubeconfig = await mgmt.client.get<{ data: Record<string, string> }>(
    "/api/v1/namespaces/tenants/secrets/tenant1-admin-kubeconfig",
  );
  await mgmt.client.create(`/api/v1/namespaces/${f.attacker.ns}/secrets`, {
    metadata: { name: "tenant1-kubeconfig" },
    data: { "admin.conf": kubeconfig.data["admin.conf"]! },
  });
  await mgmt.client.create(pathOf(SERVED_KINDS.Cluster, f.attacker.ns), {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "Cluster",
    metadata: { name: "tenant1", namespace: f.attacker.ns, labels: { [SHARD]: shard, env: "probe" } },
    spec: { kubeConfig: { secretRef: { name: "tenant1-kubeconfig", key: "admin.conf" } }, interval: "10s" },
  });
  await eventually(
    "the attacker's Cluster Ready",
    async () => {
      const c = await mgmt.client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        pathOf(SERVED_KINDS.Cluster, f.attacker.ns, "tenant1"),
      );
      return c.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True");
    },
    120_000,
  );
}, 300_000);

afterAll(async () => {
  await mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, f.attacker.ns, "peek")).catch(() => {});
  await f?.stop();
}, 180_000);

describe("a tenant's FleetKustomization reading another namespace's source", () => {
  it("with a fallbackPath, is Stalled with AccessDenied and makes no child from the other namespace's files", async () => {
    // The bystander's repository has ./app (its steady ConfigMap): the probe asks whether it does.
    await mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, f.attacker.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "peek", namespace: f.attacker.ns, labels: { [SHARD]: shard } },
      spec: {
        clusterSelector: { matchLabels: { env: "probe" } },
        fallbackPath: "./not-there",
        template: {
          spec: {
            interval: "10m",
            prune: true,
            path: "./app",
            sourceRef: { kind: "GitRepository", name: "repo", namespace: f.bystander.ns },
          },
        },
      },
    });
    const fk = await eventually(
      "the FleetKustomization's Ready condition for its generation",
      async () => {
        const o = await mgmt.client.get<FleetKustomization>(
          pathOf(SERVED_KINDS.FleetKustomization, f.attacker.ns, "peek"),
        );
        const ready = o.status?.conditions?.find((c) => c.type === "Ready");
        return ready?.observedGeneration === o.metadata.generation && ready?.status === "False" ? o : undefined;
      },
      120_000,
    );
    const ready = fk.status!.conditions!.find((c) => c.type === "Ready")!;
    expect(ready.reason).toBe("AccessDenied");
    expect(ready.message).toBe(
      `can't access 'GitRepository/${f.bystander.ns}/repo', cross-namespace references have been blocked`,
    );
    expect(fk.status!.conditions!.find((c) => c.type === "Stalled")?.status).toBe("True");
    // No child: none whose path could tell ./app from the fallback.
    const children = await mgmt.client.get<{ items: unknown[] }>(pathOf(SERVED_KINDS.Kustomization, f.attacker.ns), {
      labelSelector: `${FLEET_KUSTOMIZATION_LABEL}=peek`,
    });
    expect(children.items).toEqual([]);
    await f.bystanderKeepsReconciling();
  });
});

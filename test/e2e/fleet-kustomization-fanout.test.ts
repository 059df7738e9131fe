// One app fanned out to every matching cluster: a FleetKustomization selecting the prod Clusters
// (tenant1 and tenant2, reached through copies of their Kamaji admin kubeconfigs) makes one child
// Kustomization per cluster, and each real tenant plane gets a ConfigMap showing its own cluster name,
// its region label and a value from the Cluster's spec.variables. A cluster relabelled out of the
// selector loses its child and (onClusterRemoval: Prune, no grace period) the ConfigMap is pruned from
// that plane only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import type { Controller } from "../../src/runtime/controller.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { runCli } from "../support/cli.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const SHARD = "flotilla.dev/shard";
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const region = { tenant1: "eu-west-1", tenant2: "us-east-1" };
const remoteNs: Record<string, string> = {};
let h: KustomizeHarness;
const controllers: Controller[] = [];

const fkPath = () => pathOf(SERVED_KINDS.FleetKustomization, h.ns, "info");
const clusterPath = (name?: string) => pathOf(SERVED_KINDS.Cluster, h.ns, name);

async function remoteInfo(t: keyof typeof tenants): Promise<Record<string, string> | undefined> {
  try {
    const cm = await tenants[t].client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${remoteNs[t]}/configmaps/cluster-info`,
    );
    return cm.data;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** The `paths` app's ConfigMap on a plane: which directory it came from. */
const from = async (t: keyof typeof tenants) => {
  try {
    const got = await tenants[t].client.get<{ data: { from: string } }>(
      `/api/v1/namespaces/${remoteNs[t]}/configmaps/paths`,
    );
    return got.data.from;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
};

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "fleetks" });
  await serveFleetCrds(h);
  for (const t of ["tenant1", "tenant2"] as const) {
    remoteNs[t] = await testNamespace(tenants[t].client, "fleetks");
    const secret = await h.copyAdminKubeconfig(t);
    await h.mgmt.client.create(clusterPath(), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: {
        name: t,
        namespace: h.ns,
        labels: { [SHARD]: h.ns, env: "prod", "topology.kubernetes.io/region": region[t] },
      },
      spec: {
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
        variables: { target_ns: remoteNs[t]!, greeting: `hello from ${t}` },
        interval: "10s",
      },
    });
  }
  // The fleet's controllers in-process, sharded to this file's objects (the harness runs the sources and
  // the Kustomization controller that reconciles the children).
  // No grace period by the flag as well as by each object's field: a controller of another version that
  // installs its own CRDs could prune the field on a shared fleet.
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`, 0)));
  await h.commit(
    {
      "apps/info/cm.yaml": [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: cluster-info",
        "  namespace: ${target_ns}",
        "data:",
        "  cluster: ${cluster_name}",
        "  region: ${cluster_label_topology_kubernetes_io_region}",
        "  greeting: ${greeting}",
        "",
      ].join("\n"),
    },
    "an app that shows where it runs",
  );
}, 180_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await h.mgmt.client.delete(fkPath()).catch(() => {});
  await h.mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "paths")).catch(() => {});
  await h?.stop();
}, 120_000);

describe("FleetKustomization", () => {
  it("gives every selected cluster its child, applying that cluster's own values there", async () => {
    await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "info", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        clusterSelector: { matchLabels: { env: "prod" } },
        // Pruned at once when a cluster leaves: this file checks the prune itself (the grace period and the
        // Orphan default have fleet-cluster-removal).
        onClusterRemoval: "Prune",
        clusterRemovalGracePeriod: "0s",
        template: {
          spec: {
            sourceRef: { kind: "GitRepository", name: "platform" },
            path: "./apps/info",
            interval: "1m",
            prune: true,
          },
        },
      },
    });
    for (const t of ["tenant1", "tenant2"] as const) {
      const data = await eventually(`the ConfigMap on ${t}`, () => remoteInfo(t), 120_000);
      expect(data).toEqual({ cluster: t, region: region[t], greeting: `hello from ${t}` });
    }
    const fk = await eventually(
      "the FleetKustomization Ready",
      async () => {
        const fk = await h.mgmt.client.get<FleetKustomization>(fkPath());
        return fk.status?.conditions?.find((c) => c.type === "Ready")?.status === "True" ? fk : undefined;
      },
      120_000,
    );
    expect(fk.status?.counts).toEqual({ total: 2, ready: 2, failing: 0, progressing: 0, waiting: 0 });
    expect(fk.status?.clusters?.map((c) => [c.cluster, c.child, c.ready])).toEqual([
      ["tenant1", "info-tenant1", "True"],
      ["tenant2", "info-tenant2", "True"],
    ]);
    expect(fk.status?.clusters?.[0]?.revision).toMatch(/^main@sha1:/);
    const got = await runCli(["get", "fks", "-n", h.ns, "--kubeconfig", plane("management").kubeconfig]);
    expect(
      got.stdout
        .split("\n")[1]
        ?.split("\t")
        .map((x) => x.trim()),
    ).toEqual(["info", "2/2", "False", "True", "2/2 clusters ready", ""]);
    const child = await h.getKs("info-tenant1");
    expect(child.metadata.ownerReferences).toMatchObject([{ kind: "FleetKustomization", name: "info" }]);
    expect(child.spec.kubeConfig).toEqual({ secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } });
  }, 300_000);

  it("a cluster relabelled out of the selector loses its child, and the app is pruned from that cluster only", async () => {
    await h.mgmt.client.patch(clusterPath("tenant2"), "merge", { metadata: { labels: { env: "staging" } } });
    await eventually(
      "the ConfigMap pruned from tenant2",
      async () => (await remoteInfo("tenant2")) === undefined,
      120_000,
    );
    await eventually(
      "tenant2's child gone",
      async () => {
        try {
          await h.getKs("info-tenant2");
          return false;
        } catch (err) {
          return err instanceof NotFoundError;
        }
      },
      60_000,
    );
    expect(await remoteInfo("tenant1")).toMatchObject({ cluster: "tenant1" });
    const fk = await eventually("the FleetKustomization listing one cluster", async () => {
      const fk = await h.mgmt.client.get<FleetKustomization>(fkPath());
      return fk.status?.counts?.total === 1 ? fk : undefined;
    });
    expect(fk.status?.clusters?.map((c) => c.cluster)).toEqual(["tenant1"]);
    const c = await h.mgmt.client.get<FleetCluster>(clusterPath("tenant2"));
    expect(c.metadata.labels?.env).toBe("staging");
  }, 240_000);
  it("a cluster without its own directory gets the fallback path, and its own once a commit adds it", async () => {
    const cm = (from: string) =>
      [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: paths",
        "  namespace: ${target_ns}",
        "data:",
        `  from: ${from}`,
        "",
      ].join("\n");
    await h.commit(
      { "apps/paths/tenant1/cm.yaml": cm("tenant1-own"), "apps/paths/default/cm.yaml": cm("default") },
      "tenant1 has its own directory; the others share the default",
    );
    await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "paths", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        clusterSelector: { names: ["tenant1", "tenant2"] },
        onClusterRemoval: "Prune",
        clusterRemovalGracePeriod: "0s",
        fallbackPath: "./apps/paths/default",
        template: {
          spec: {
            sourceRef: { kind: "GitRepository", name: "platform" },
            path: "./apps/paths/${cluster_name}",
            interval: "1m",
            prune: true,
          },
        },
      },
    });
    await eventually("tenant1 from its own directory", async () => (await from("tenant1")) === "tenant1-own", 120_000);
    await eventually("tenant2 from the fallback", async () => (await from("tenant2")) === "default", 120_000);
    expect((await h.getKs("paths-tenant2")).spec.path).toBe("./apps/paths/default");
    await h.commit({ "apps/paths/tenant2/cm.yaml": cm("tenant2-own") }, "tenant2 gets its own directory");
    await eventually("tenant2 from its own directory", async () => (await from("tenant2")) === "tenant2-own", 120_000);
    expect((await h.getKs("paths-tenant2")).spec.path).toBe("./apps/paths/tenant2");
  }, 300_000);
  it("a deleted Cluster loses every child, and nothing flotilla applied is left on it", async () => {
    const applied = async () =>
      (
        await tenants.tenant1.client.get<{ items: { metadata: { name: string } }[] }>(
          `/api/v1/namespaces/${remoteNs.tenant1}/configmaps?labelSelector=${encodeURIComponent("kustomize.toolkit.fluxcd.io/name")}`,
        )
      ).items.map((i) => i.metadata.name);
    expect((await applied()).sort()).toEqual(["cluster-info", "paths"]);
    await h.mgmt.client.delete(clusterPath("tenant1"));
    await eventually("nothing of flotilla's left on tenant1", async () => (await applied()).length === 0, 120_000);
    // The children finish their deletion (finalizer done) just after their prune: waited for, not raced.
    await eventually(
      "tenant1's children gone",
      async () =>
        (
          await h.mgmt.client.listAll<KubeObject>(pathOf(SERVED_KINDS.Kustomization, h.ns), {
            labelSelector: "fleet.flotilla.dev/cluster=tenant1",
          })
        ).items.length === 0,
      60_000,
    );
    expect(await from("tenant2")).toBe("tenant2-own");
  }, 240_000);
});

// planFleet's rows for a fleet parent, decided without an API server: one row per selected cluster
// (create, change, unchanged, prune), a cluster that cannot be reached or is no longer selected, the
// staged-rollout and suspend notes. Each cluster's objects are in an in-memory client (memory-backend.ts);
// what a real dry-run answers stays proven end to end (test/e2e/cli-plan.test.ts).
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import type { InMemoryKube } from "../../kube/testing/in-memory-client.js";
import {
  NS,
  REPO,
  checkout,
  clusterHolding,
  emptyState,
  fleetCluster,
  fleetHelmRelease,
  fleetKustomization,
  infoConfigMap,
  infoYaml,
  planContext,
  removeScratch,
} from "./testing/fleet-fixtures.js";
import type { AppPlan } from "./types.js";
import { planFleet } from "./walk.js";

afterAll(removeScratch);

const red = checkout({ "apps/cm.yaml": infoYaml("red") });
const byCluster = (apps: AppPlan[]) => Object.fromEntries(apps.map((a) => [a.cluster, a]));
const rowOf = (a: AppPlan) => ({
  create: a.create,
  change: a.change.map((c) => [c.subject, c.diff]),
  prune: a.prune,
  unchanged: a.unchanged,
  errors: a.errors.map((e) => e.message),
});

/** The child a fan-out wrote on `cluster` before, having applied `ids` there. */
const liveChild = (cluster: string, ids: string[]): KubeObject =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: {
      name: `web-${cluster}`,
      namespace: NS,
      labels: { "fleet.flotilla.dev/fleet-kustomization": "web", "fleet.flotilla.dev/cluster": cluster },
    },
    spec: { kubeConfig: { secretRef: { name: `${cluster}-kubeconfig` } } },
    status: { inventory: { entries: ids.map((id) => ({ id, v: "v1" })) } },
  }) as KubeObject;

describe("a fleet parent's plan, per cluster", () => {
  it("one row per selected cluster: created where absent, the changed field where it differs, unchanged where equal", async () => {
    const state = emptyState();
    state.clusters = ["same", "older", "fresh"].map((n) => fleetCluster(n));
    state.fleetKustomizations = [fleetKustomization()];
    const { ctx, backend } = planContext(
      state,
      { [REPO]: red },
      {
        clusters: {
          [`${NS}/same`]: await clusterHolding(infoConfigMap({ color: "red", cluster: "same" }, "web-same")),
          [`${NS}/older`]: await clusterHolding(infoConfigMap({ color: "blue", cluster: "older" }, "web-older")),
          [`${NS}/fresh`]: await clusterHolding(),
        },
      },
    );
    const rows = byCluster(await planFleet(ctx));
    expect(Object.keys(rows).sort()).toEqual([`${NS}/fresh`, `${NS}/older`, `${NS}/same`]);
    expect(rowOf(rows[`${NS}/same`]!)).toMatchObject({ create: [], change: [], unchanged: 1 });
    expect(rowOf(rows[`${NS}/older`]!).change).toEqual([
      ["ConfigMap/apps/info", [{ path: "data.color", before: "blue", after: "red" }]],
    ]);
    expect(rowOf(rows[`${NS}/fresh`]!)).toMatchObject({ create: ["ConfigMap/apps/info"], unchanged: 0 });
    expect(rows[`${NS}/fresh`]!).toMatchObject({
      kind: "Kustomization",
      name: "web-fresh",
      via: `FleetKustomization ${NS}/web (reads ${REPO})`,
    });
    expect(backend.asked.sort()).toEqual(["fresh", "older", "same"].map((n) => `${NS}/${n} Kustomization/web-${n}`));
  });

  it("what a cluster's child applied before and the new files lack is pruned there, and only there", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("a"), fleetCluster("b")];
    state.fleetKustomizations = [fleetKustomization()];
    state.kustomizations = [liveChild("a", ["apps_info__ConfigMap", "apps_old__ConfigMap"]) as never];
    const { ctx } = planContext(
      state,
      { [REPO]: red },
      { clusters: { [`${NS}/a`]: await clusterHolding(), [`${NS}/b`]: await clusterHolding() } },
    );
    const rows = byCluster(await planFleet(ctx));
    expect(rows[`${NS}/a`]!.prune).toEqual(["ConfigMap/apps/old"]);
    expect(rows[`${NS}/b`]!.prune).toEqual([]);
  });

  it("a cluster that cannot be reached is that cluster's error; the others are planned and nothing is written", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("up"), fleetCluster("down")];
    state.fleetKustomizations = [fleetKustomization()];
    const up = await clusterHolding();
    const { ctx } = planContext(
      state,
      { [REPO]: red },
      {
        clusters: {
          [`${NS}/up`]: up,
          [`${NS}/down`]: new Error("connect ECONNREFUSED 127.0.0.1:6443"),
        },
      },
    );
    const rows = byCluster(await planFleet(ctx));
    expect(rowOf(rows[`${NS}/down`]!)).toMatchObject({ create: [], errors: ["connect ECONNREFUSED 127.0.0.1:6443"] });
    expect(rowOf(rows[`${NS}/up`]!)).toMatchObject({ create: ["ConfigMap/apps/info"], errors: [] });
    expect(up.writes).toEqual([]);
  });

  it("a cluster no longer selected: with onClusterRemoval Prune its row prunes all its child applied; Orphan (default) shows no row", async () => {
    const plan = async (onClusterRemoval?: "Prune" | "Orphan") => {
      const state = emptyState();
      state.clusters = [fleetCluster("stays"), fleetCluster("leaves", { env: "retired" })];
      state.fleetKustomizations = [fleetKustomization(onClusterRemoval ? { onClusterRemoval } : {})];
      state.kustomizations = [liveChild("leaves", ["apps_info__ConfigMap", "_apps__Namespace"]) as never];
      const { ctx, backend } = planContext(
        state,
        { [REPO]: red },
        { clusters: { [`${NS}/stays`]: await clusterHolding() } },
      );
      return { rows: byCluster(await planFleet(ctx)), asked: backend.asked };
    };
    const pruned = await plan("Prune");
    expect(pruned.rows[`${NS}/leaves`]).toMatchObject({
      name: "web-leaves",
      via: `FleetKustomization ${NS}/web: cluster no longer selected`,
      prune: ["ConfigMap/apps/info", "Namespace/apps"],
      errors: [],
    });
    expect(pruned.asked).toEqual([`${NS}/stays Kustomization/web-stays`]); // the leaving cluster is not dry-run
    for (const orphaned of [await plan(), await plan("Orphan")])
      expect(Object.keys(orphaned.rows)).toEqual([`${NS}/stays`]);
  });

  it("a staged rollout or a suspended parent is said on every cluster's row", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("a"), fleetCluster("b")];
    state.fleetKustomizations = [
      fleetKustomization({
        suspend: true,
        rollout: { stages: [{ name: "canary", clusterSelector: { names: ["a"] } }] },
      }),
    ];
    const fleet = { clusters: { [`${NS}/a`]: await clusterHolding(), [`${NS}/b`]: await clusterHolding() } };
    for (const row of await planFleet(planContext(state, { [REPO]: red }, fleet).ctx))
      expect(row.notes).toEqual([
        `FleetKustomization ${NS}/web rolls out in stages: this cluster applies it when its stage reaches the new revision`,
        `FleetKustomization ${NS}/web is suspended: the fan-out changes no child until it is resumed`,
      ]);
    state.fleetKustomizations = [fleetKustomization()];
    for (const row of await planFleet(planContext(state, { [REPO]: red }, fleet).ctx)) expect(row.notes).toEqual([]);
  });

  it("a cluster whose child cannot be built (a value its path needs is undefined) is that cluster's error", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("eu", { env: "prod", region: "eu" }), fleetCluster("bare")];
    state.fleetKustomizations = [
      fleetKustomization({
        template: {
          spec: {
            interval: "5m",
            path: "./${cluster_label_region}",
            prune: true,
            sourceRef: { kind: "GitRepository", name: "repo" },
          },
        },
      }),
    ];
    const dir = checkout({ "eu/cm.yaml": infoYaml("red") });
    const fleet = { clusters: { [`${NS}/eu`]: await clusterHolding(), [`${NS}/bare`]: await clusterHolding() } };
    const rows = byCluster(await planFleet(planContext(state, { [REPO]: dir }, fleet).ctx));
    expect(rows[`${NS}/eu`]!.create).toEqual(["ConfigMap/apps/info"]);
    expect(rows[`${NS}/bare`]!.errors).toEqual([
      { message: "spec.template.spec.path uses ${cluster_label_region}, which this cluster does not define" },
    ]);
  });
});

describe("a FleetHelmRelease's plan, per cluster", () => {
  /** Renders the release as one ConfigMap of its values, owned by the release as helm marks it. */
  const charts: string[] = [];
  const render = async (hr: { spec: { targetNamespace?: string } }, chart: string, values: Record<string, unknown>) => {
    charts.push(chart);
    return renderedAs(hr, values);
  };
  const renderedAs = (hr: { spec: { targetNamespace?: string } }, values: Record<string, unknown>) => [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "cache",
        namespace: hr.spec.targetNamespace!,
        annotations: { "meta.helm.sh/release-name": `apps-cache-${String(values.cluster)}` },
      },
      data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])),
    } as KubeObject,
  ];
  const chartCheckout = checkout({ "charts/cache/Chart.yaml": "apiVersion: v2\nname: cache\nversion: 1.0.0\n" });

  it("each cluster's release rendered with its own values: changed on one, unchanged on the other, the dropped object deleted", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("a"), fleetCluster("b")];
    state.fleetHelmReleases = [fleetHelmRelease({ cluster: "${cluster_name}", size: "large" })];
    const cm = (cluster: string, size: string) =>
      renderedAs({ spec: { targetNamespace: "apps" } }, { cluster, size })[0]!;
    const old = { ...cm("a", "small"), metadata: { ...cm("a", "small").metadata, name: "cache-old" } };
    const clusters: Record<string, InMemoryKube> = {
      [`${NS}/a`]: await clusterHolding(cm("a", "small"), old),
      [`${NS}/b`]: await clusterHolding(cm("b", "large")),
    };
    const { ctx } = planContext(state, { [REPO]: chartCheckout }, { clusters }, { renderRelease: render as never });
    const rows = byCluster(await planFleet(ctx));
    expect(rowOf(rows[`${NS}/a`]!)).toMatchObject({
      change: [["ConfigMap/apps/cache", [{ path: "data.size", before: "small", after: "large" }]]],
      prune: ["ConfigMap/apps/cache-old"],
    });
    expect(rowOf(rows[`${NS}/b`]!)).toMatchObject({ change: [], prune: [], unchanged: 1 });
    expect(rows[`${NS}/b`]).toMatchObject({
      kind: "HelmRelease",
      name: "cache-b",
      via: `FleetHelmRelease ${NS}/cache (reads ${REPO})`,
    });
    // The chart rendered is the replaced GitRepository's directory, not the one the HelmChart holds now.
    expect(new Set(charts)).toEqual(new Set([realpathSync(join(chartCheckout, "charts/cache"))]));
  });
});

// Which apps planFleet plans, decided without an API server: the readers of a replaced source and what
// a management Kustomization's render reaches (a fleet parent or HelmRelease whose spec changes, an app
// dropped, a GitRepository changed), and the refusals that are one app's error, never the whole plan's.
import { afterAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { HelmChart, HelmRepository } from "../../api/source/helm.js";
import {
  NS,
  REPO,
  checkout,
  clusterHolding,
  emptyState,
  fleetCluster,
  fleetKustomization,
  infoYaml,
  planContext,
  removeScratch,
} from "./testing/fleet-fixtures.js";
import { planFleet } from "./walk.js";

afterAll(removeScratch);

const kustomization = (name: string, source: string, path: string, extra: object = {}): Kustomization =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: NS },
    spec: { interval: "5m", path, prune: true, sourceRef: { kind: "GitRepository", name: source } },
    ...extra,
  }) as Kustomization;

const fleetYaml = (path: string) =>
  `apiVersion: fleet.flotilla.dev/v1alpha1\nkind: FleetKustomization\nmetadata:\n  name: web\n  namespace: ${NS}\n` +
  `spec:\n  clusterSelector:\n    matchLabels:\n      env: prod\n  template:\n    spec:\n      interval: 5m\n` +
  `      path: ${path}\n      prune: true\n      sourceRef:\n        kind: GitRepository\n        name: apps-repo\n`;

const releaseYaml = (version: string, kind = "HelmRepository") =>
  `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: cache\n  namespace: ${NS}\n` +
  `spec:\n  interval: 5m\n  chart:\n    spec:\n      chart: cache\n      version: "${version}"\n` +
  `      sourceRef:\n        kind: ${kind}\n        name: charts\n`;

const rows = (apps: Awaited<ReturnType<typeof planFleet>>) =>
  apps.map((a) => `${a.cluster} ${a.kind}/${a.name} via ${a.via}`).sort();

describe("planFleet: which apps a change reaches", () => {
  it("plans the readers of the replaced source with its new files, and nothing reading another source", async () => {
    const state = emptyState();
    state.kustomizations = [kustomization("apps", "repo", "./apps"), kustomization("other", "other", "./apps")];
    const { ctx, backend } = planContext(
      state,
      { [REPO]: checkout({ "apps/cm.yaml": infoYaml("red") }) },
      {
        clusters: { management: await clusterHolding() },
        artifacts: { [`GitRepository/${NS}/other`]: checkout({ "apps/cm.yaml": infoYaml("blue") }) },
      },
    );
    const apps = await planFleet(ctx);
    expect(rows(apps)).toEqual([`management Kustomization/apps via reads ${REPO}`]);
    expect(apps[0]!.create).toEqual(["ConfigMap/apps/info"]);
    expect(backend.asked).toEqual(["management Kustomization/apps"]);
  });

  it("a fleet parent whose spec a management render changes is planned with the new spec on each cluster", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("a"), fleetCluster("b")];
    state.kustomizations = [kustomization("fleet-config", "repo", "./fleet")];
    const live = fleetKustomization();
    live.spec.template.spec.sourceRef.name = "apps-repo";
    state.fleetKustomizations = [live];
    const { ctx } = planContext(
      state,
      { [REPO]: checkout({ "fleet/web.yaml": fleetYaml("./apps-v2") }) },
      {
        clusters: {
          management: await clusterHolding(),
          [`${NS}/a`]: await clusterHolding(),
          [`${NS}/b`]: await clusterHolding(),
        },
        artifacts: { [`GitRepository/${NS}/apps-repo`]: checkout({ "apps-v2/cm.yaml": infoYaml("green") }) },
      },
    );
    const apps = await planFleet(ctx);
    const via = `FleetKustomization ${NS}/web (rendered by Kustomization ${NS}/fleet-config (spec changed))`;
    expect(rows(apps)).toEqual([
      `${NS}/a Kustomization/web-a via ${via}`,
      `${NS}/b Kustomization/web-b via ${via}`,
      `management Kustomization/fleet-config via reads ${REPO}`,
    ]);
    for (const a of apps.filter((p) => p.cluster !== "management")) expect(a.create).toEqual(["ConfigMap/apps/info"]);
  });

  it("an app the render drops, and a rendered GitRepository an offline-like backend cannot check out, are said in notes", async () => {
    const state = emptyState();
    const parent = kustomization("fleet-config", "repo", "./fleet", {
      status: { inventory: { entries: [{ id: `${NS}_retired_kustomize.toolkit.fluxcd.io_Kustomization`, v: "v1" }] } },
    });
    state.kustomizations = [parent];
    const repoYaml = `apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: apps-repo\n  namespace: ${NS}\nspec:\n  interval: 5m\n  url: https://127.0.0.1/apps.git\n`;
    const { ctx } = planContext(
      state,
      { [REPO]: checkout({ "fleet/repo.yaml": repoYaml }) },
      { clusters: { management: await clusterHolding() } },
    );
    const [plan, ...more] = await planFleet(ctx);
    expect(more).toEqual([]);
    expect(plan!.notes).toEqual([
      `GitRepository/${NS}/apps-repo changes (new): an offline plan cannot check it out; its readers are not planned`,
      `Kustomization ${NS}/retired is deleted by this change: what it applied is removed with it (unless its deletion policy keeps it)`,
    ]);
  });

  it("a HelmRelease the change bumps to a chart version no HelmChart holds is rendered from that version, pulled from its HelmRepository", async () => {
    const state = emptyState();
    state.kustomizations = [kustomization("releases", "repo", "./releases")];
    state.helmRepositories = [
      {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "HelmRepository",
        metadata: { name: "charts", namespace: NS },
        spec: { url: "http://127.0.0.1/charts" },
      } as HelmRepository,
    ];
    state.helmCharts = [
      {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "HelmChart",
        metadata: { name: `${NS}-cache`, namespace: NS },
        spec: { chart: "cache", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } },
      } as HelmChart,
    ];
    const rendered: string[] = [];
    const render = async (_hr: unknown, chart: string) => (rendered.push(chart), []);
    const { ctx, backend } = planContext(
      state,
      { [REPO]: checkout({ "releases/hr.yaml": releaseYaml("2.0.0") }) },
      { clusters: { management: await clusterHolding() } },
      { renderRelease: render as never },
    );
    const apps = await planFleet(ctx);
    expect(rows(apps)).toContain(`management HelmRelease/cache via rendered by Kustomization ${NS}/releases (new)`);
    expect(backend.pulled).toEqual(["cache@2.0.0"]);
    expect(rendered).toEqual(["pulled cache@2.0.0"]);
  });

  it("refuses, as that app's error only, a chart version change from a source the plan cannot pull a chart from", async () => {
    const state = emptyState();
    state.kustomizations = [kustomization("releases", "repo", "./releases"), kustomization("apps", "repo", "./apps")];
    const { ctx } = planContext(
      state,
      { [REPO]: checkout({ "releases/hr.yaml": releaseYaml("2.0.0", "Bucket"), "apps/cm.yaml": infoYaml("red") }) },
      { clusters: { management: await clusterHolding() } },
    );
    const apps = await planFleet(ctx);
    const release = apps.find((a) => a.kind === "HelmRelease")!;
    expect(release.errors).toEqual([
      {
        message: `spec.chart.spec changes the chart to cache@2.0.0 from Bucket ${NS}/charts: the plan renders a chart from a HelmRepository, a replaced GitRepository or the HelmChart's current artifact`,
      },
    ]);
    expect(apps.find((a) => a.name === "apps")!).toMatchObject({ create: ["ConfigMap/apps/info"], errors: [] });
  });

  it("a rendered fleet parent the plan cannot even start on is its own error row; the rest of the plan goes on", async () => {
    const state = emptyState();
    state.clusters = [fleetCluster("a")];
    state.kustomizations = [kustomization("fleet-config", "repo", "./fleet"), kustomization("apps", "repo", "./apps")];
    const broken = `apiVersion: fleet.flotilla.dev/v1alpha1\nkind: FleetKustomization\nmetadata:\n  name: broken\n  namespace: ${NS}\nspec: {}\n`;
    const { ctx } = planContext(
      state,
      { [REPO]: checkout({ "fleet/broken.yaml": broken, "apps/cm.yaml": infoYaml("red") }) },
      { clusters: { management: await clusterHolding() } },
    );
    const apps = await planFleet(ctx);
    const row = apps.find((a) => a.name === "broken")!;
    expect(row).toMatchObject({
      cluster: "management",
      via: `FleetKustomization (rendered by Kustomization ${NS}/fleet-config (new))`,
    });
    expect(row.errors).toHaveLength(1);
    expect(apps.find((a) => a.name === "apps")!).toMatchObject({ create: ["ConfigMap/apps/info"], errors: [] });
  });
});

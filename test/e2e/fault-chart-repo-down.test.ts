// Fault: the Helm chart repository goes down. HelmRepository and HelmChart say their fetch failed,
// naming the repository's address; each keeps its last artifact, stored and served intact. Back on
// the same port, both converge: the new index is stored and the chart version asked for meanwhile
// is pulled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Condition } from "../../src/api/meta/conditions.js";
import type { Artifact } from "../../src/api/meta/artifact.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
let ns: string;
let charts: ChartRepo;
let sc: SourceControllers;

interface Source {
  metadata: { generation: number };
  status?: { artifact?: Artifact; conditions?: Condition[]; lastHandledReconcileAt?: string };
}
const condition = (o: Source, type: string) => o.status?.conditions?.find((c) => c.type === type);

/** Asks for a reconcile and returns the object once that reconcile is observed in its status. */
async function reconciled(plural: string, name: string): Promise<Source> {
  const at = await sc.requestReconcile(plural, name);
  return eventually(`${plural}/${name}'s requested reconcile`, async () => {
    const o = await sc.get<Source>(plural, name);
    return o.status?.lastHandledReconcileAt === at ? o : undefined;
  });
}

/** The artifact is in storage with the bytes its digest names, and its URL serves them. */
async function intact(artifact: Artifact) {
  expect(sc.storage.read(artifact)).toBeDefined();
  expect((await fetch(artifact.url)).status).toBe(200);
}

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "chartdown");
  charts = await startChartRepo();
  for (const v of ["1.0.0", "1.1.0"]) await charts.addChart("app", v);
  sc = await startSourceControllers(cluster, ns, { helm: true });
}, 180_000);

afterAll(async () => {
  await sc?.stop();
  await charts?.close();
});

describe("fault: chart repository down", () => {
  it("keeps the last index and chart, names the failure, and converges when the repository is back", async () => {
    await sc.create("helmrepositories", "charts", { url: charts.url });
    await sc.create("helmcharts", "app", {
      chart: "app",
      version: "1.0.0",
      sourceRef: { kind: "HelmRepository", name: "charts" },
    });
    const repoBefore = await sc.waitReady<Source>("helmrepositories", "charts");
    const chartBefore = await sc.waitReady<Source>("helmcharts", "app");
    expect(chartBefore.status!.artifact!.revision).toBe("1.0.0");
    const address = `127.0.0.1:${charts.port}`;

    // Down: a new version is published meanwhile, and the chart asks for 1.1.0 (not pulled yet).
    await charts.goDown();
    await charts.addChart("app", "1.2.0");
    const repoDown = await reconciled("helmrepositories", "charts");
    expect(condition(repoDown, "FetchFailed")).toMatchObject({ status: "True" });
    expect(condition(repoDown, "FetchFailed")!.message).toContain(address);
    expect(condition(repoDown, "Ready")).toMatchObject({ status: "False" });
    expect(repoDown.status!.artifact).toEqual(repoBefore.status!.artifact);
    await intact(repoDown.status!.artifact!);

    await cluster.client.patch(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmcharts/app`, "merge", {
      spec: { version: "1.1.0" },
    });
    const chartDown = await eventually("the HelmChart's failed pull of 1.1.0", async () => {
      const o = await sc.get<Source>("helmcharts", "app");
      const ready = condition(o, "Ready");
      return ready?.status === "False" && ready.observedGeneration === o.metadata.generation ? o : undefined;
    });
    expect(condition(chartDown, "FetchFailed")).toMatchObject({ status: "True" });
    expect(condition(chartDown, "FetchFailed")!.message).toContain(address);
    expect(chartDown.status!.artifact).toEqual(chartBefore.status!.artifact);
    await intact(chartDown.status!.artifact!);

    // Back on the same port: the new index is stored and 1.1.0 pulled.
    await charts.comeBack();
    const repoBack = await eventually("the HelmRepository with the new index", async () => {
      const o = await reconciled("helmrepositories", "charts");
      return condition(o, "Ready")?.status === "True" ? o : undefined;
    });
    expect(repoBack.status!.artifact!.revision).not.toBe(repoBefore.status!.artifact!.revision);
    expect(condition(repoBack, "FetchFailed")).toBeUndefined();
    const chartBack = await eventually("the HelmChart at 1.1.0", async () => {
      const o = await reconciled("helmcharts", "app");
      return condition(o, "Ready")?.status === "True" && o.status?.artifact?.revision === "1.1.0" ? o : undefined;
    });
    await intact(chartBack.status!.artifact!);
  }, 240_000);
});

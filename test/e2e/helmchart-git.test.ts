// HelmChart with a GitRepository source: the chart directory in the Git artifact, packaged by the
// real helm, checked with the real helm (`helm show`); reconcileStrategy ChartVersion vs Revision;
// valuesFiles merged into the packaged values.yaml; ignoreMissingValuesFiles.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import type { HelmChart } from "../../src/api/source/helm.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { artifactFiles, type SourceControllers, startSourceControllers } from "../support/source-controllers.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const HC = "helmcharts";
let git: GitHttpServer;
let sc: SourceControllers;
let repo: GitRepoHandle;
let ns: string;
let charts: ChartRepo;

const chartFiles = (version: string, message: string) => ({
  "charts/app/Chart.yaml": `apiVersion: v2\nname: app\nversion: ${version}\n`,
  "charts/app/values.yaml": "replicas: 1\nimage:\n  tag: v1\n  pullPolicy: IfNotPresent\n",
  "charts/app/values-prod.yaml": "replicas: 3\nimage:\n  tag: v2\n",
  "charts/app/templates/cm.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  msg: ${message}\n`,
});
const ready = (o: HelmChart) => o.status?.conditions?.find((c) => c.type === "Ready");

/** `helm show <what>` of the chart artifact, by the real helm. */
async function helmShow(what: "chart" | "values", chart: HelmChart): Promise<string> {
  const dir = makeWorkDir("flotilla-helm-show-");
  const file = join(dir, "chart.tgz");
  writeFileSync(file, Buffer.from(await (await fetch(chart.status!.artifact!.url)).arrayBuffer()));
  return runHelm(["show", what, file], helmEnv(dir));
}

const chartSpec = (extra: Record<string, unknown> = {}) => ({
  chart: "./charts/app",
  sourceRef: { kind: "GitRepository", name: "charts" },
  ...extra,
});

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "hc-git");
  git = await startGitHttpServer();
  sc = await startSourceControllers(cluster, ns, { helm: true });
  repo = await git.createRepo("charts");
  await repo.commit(chartFiles("1.2.0", "one"), "chart 1.2.0");
  await sc.create("gitrepositories", "charts", { url: repo.url, ref: { branch: "main" } });
});

afterAll(async () => {
  await charts?.close();
  await sc?.stop();
  await git?.close();
});

describe("HelmChart from a GitRepository", () => {
  it("packages the chart directory with helm; ChartVersion keeps the artifact across commits, Revision adds the commit", async () => {
    await sc.create(HC, "by-version", chartSpec());
    await sc.create(HC, "by-revision", chartSpec({ reconcileStrategy: "Revision" }));
    const byVersion = await sc.waitReady<HelmChart>(HC, "by-version");
    expect(ready(byVersion)).toMatchObject({
      reason: "ChartPackageSucceeded",
      message: "packaged 'app' chart with version '1.2.0'",
    });
    expect(byVersion.status!.artifact!.path).toMatch(/\/by-version\/app-1\.2\.0\.tgz$/);
    expect(await helmShow("chart", byVersion)).toContain("version: 1.2.0");
    const sha1 = (await sc.get<GitRepository>("gitrepositories", "charts")).status!.artifact!.revision.slice(-40);
    const byRevision = await sc.waitReady<HelmChart>(HC, "by-revision");
    expect(byRevision.status!.artifact!.revision).toBe(`1.2.0+${sha1.slice(0, 12)}`);
    expect(await helmShow("chart", byRevision)).toContain(`version: 1.2.0+${sha1.slice(0, 12)}`);

    const sha2 = await repo.commit(chartFiles("1.2.0", "two"), "template change, same version");
    await sc.requestReconcile("gitrepositories", "charts"); // the charts follow their source by themselves
    const moved = await eventually(
      "the Revision chart to follow the new commit",
      async () => {
        const c = await sc.get<HelmChart>(HC, "by-revision");
        return c.status?.artifact?.revision === `1.2.0+${sha2.slice(0, 12)}` ? c : undefined;
      },
      20_000,
    );
    expect(moved.status!.observedSourceArtifactRevision).toBe(`main@sha1:${sha2}`);
    const kept = await eventually("the ChartVersion chart to observe the commit", async () => {
      const c = await sc.get<HelmChart>(HC, "by-version");
      return c.status?.observedSourceArtifactRevision === `main@sha1:${sha2}` ? c : undefined;
    });
    expect(kept.status!.artifact!.digest).toBe(byVersion.status!.artifact!.digest);
  });

  it("merges valuesFiles into the packaged values.yaml, tags the version with the generation, and reports a missing file", async () => {
    const files = ["charts/app/values.yaml", "charts/app/values-prod.yaml"];
    await sc.create(HC, "prod", chartSpec({ valuesFiles: files }));
    const prod = await sc.waitReady<HelmChart>(HC, "prod");
    expect(ready(prod)!.message).toBe(
      `packaged 'app' chart with version '1.2.0+1' and merged values files [${files.join(" ")}]`,
    );
    expect(prod.status!.observedValuesFiles).toEqual(files);
    const values = await helmShow("values", prod);
    expect(values).toContain("replicas: 3");
    expect(values).toMatch(/image:\n\s+pullPolicy: IfNotPresent\n\s+tag: v2/);

    await sc.create(HC, "missing", chartSpec({ valuesFiles: ["charts/app/values.yaml", "nope.yaml"] }));
    const missing = await sc.waitReady<HelmChart>(HC, "missing", "False");
    expect(ready(missing)).toMatchObject({
      reason: "ValuesFilesError",
      message: "values files merge error: no values file found at path '/nope.yaml' (reference 'nope.yaml')",
    });
    expect(missing.status!.conditions!.find((c) => c.type === "BuildFailed")!.status).toBe("True");

    await sc.create(
      HC,
      "tolerant",
      chartSpec({ valuesFiles: ["nope.yaml", files[1]], ignoreMissingValuesFiles: true }),
    );
    const tolerant = await sc.waitReady<HelmChart>(HC, "tolerant");
    expect(tolerant.status!.observedValuesFiles).toEqual([files[1]]);
    expect(await helmShow("values", tolerant)).not.toContain("pullPolicy");
  });
  it("resolves dependencies: a file:// sibling, and a chart repository with the namespace's HelmRepository credentials; refuses file:// outside the artifact", async () => {
    charts = await startChartRepo({ auth: { username: "deps", password: "dep-pass" } });
    await charts.addChart("lib", "0.3.0");
    await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "lib-auth" },
      stringData: { username: "deps", password: "dep-pass" },
    });
    await sc.create(
      "helmrepositories",
      "lib",
      { url: charts.url, interval: "10m", secretRef: { name: "lib-auth" } },
      "HelmRepository",
    );
    await repo.commit(
      {
        "charts/common/Chart.yaml": "apiVersion: v2\nname: common\nversion: 0.1.0\ntype: library\n",
        "charts/withdeps/Chart.yaml": [
          "apiVersion: v2",
          "name: withdeps",
          "version: 2.0.0",
          "dependencies:",
          "- name: common",
          "  version: 0.1.0",
          "  repository: file://../common",
          "- name: lib",
          '  version: "^0.3.0"',
          `  repository: ${charts.url}`,
          "",
        ].join("\n"),
        "charts/withdeps/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: withdeps\n",
        "charts/escape/Chart.yaml":
          "apiVersion: v2\nname: escape\nversion: 0.1.0\ndependencies:\n- name: host\n  version: 0.1.0\n  repository: file://../../../../etc\n",
      },
      "charts with dependencies",
    );
    await sc.requestReconcile("gitrepositories", "charts");
    await sc.create(HC, "withdeps", chartSpec({ chart: "./charts/withdeps" }));
    const built = await sc.waitReady<HelmChart>(HC, "withdeps");
    const files = Object.keys(await artifactFiles(built.status!.artifact!.url));
    expect(files).toEqual(
      // helm package unpacks the fetched dependencies into charts/<name>/.
      expect.arrayContaining(["withdeps/charts/common/Chart.yaml", "withdeps/charts/lib/Chart.yaml"]),
    );
    // The repository answers 401 without credentials: lib came with the HelmRepository's.
    expect(charts.requests.byPath["/lib-0.3.0.tgz"]).toBeGreaterThan(0);

    await sc.create(HC, "escape", chartSpec({ chart: "./charts/escape" }));
    const refused = await sc.waitReady<HelmChart>(HC, "escape", "False");
    expect(ready(refused)).toMatchObject({ reason: "DependencyBuildError" });
    expect(ready(refused)!.message).toContain("'file://../../../../etc' is outside the source artifact");
  });
});

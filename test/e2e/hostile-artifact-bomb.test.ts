// A hostile chart repository (issue #11): a chart archive that is a tar bomb — a few megabytes of
// gzip declaring a 4 GiB file — and one holding a symbolic link out of the chart. The HelmChart that
// unpacks it (valuesFiles make the controller unpack and re-package) is refused by name at the first
// bad header, nothing is stored, and the controller goes on serving the next chart.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmChart } from "../../src/api/source/helm.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { rawHeader, rawTarball, repeatedMember } from "../support/hostile-archives.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
let repo: ChartRepo;
let sc: SourceControllers;

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Swaps a packaged chart's archive for `data`, keeping the index's digest true to it. */
function replaceArchive(name: string, version: string, data: Buffer): void {
  const file = join(repo.dir, `${name}-${version}.tgz`);
  const index = join(repo.dir, "index.yaml");
  const before = sha256(readFileSync(file));
  writeFileSync(file, data);
  writeFileSync(index, readFileSync(index, "utf8").replace(before, sha256(data)));
}

const chartSpec = (chart: string) => ({
  chart,
  sourceRef: { kind: "HelmRepository", name: "charts" },
  valuesFiles: ["values.yaml", "values-prod.yaml"],
});

beforeAll(async () => {
  repo = await startChartRepo();
  const files = { "values-prod.yaml": "message: prod\n" };
  for (const name of ["bomb", "linked", "honest"]) await repo.addChart(name, "1.0.0", { files });
  // 4 GiB declared after a real Chart.yaml, in about 4 MB of gzip.
  const chartYaml = Buffer.from("apiVersion: v2\nname: bomb\nversion: 1.0.0\n");
  const tar = Buffer.concat([
    rawHeader({ name: "bomb/Chart.yaml" }, chartYaml.length),
    chartYaml,
    Buffer.alloc(512 - chartYaml.length),
    rawHeader({ name: "bomb/big.bin" }, 4 * 1024 ** 3),
  ]);
  const bomb = Buffer.concat([gzipSync(tar), repeatedMember(Buffer.alloc(16 * 1024 ** 2), 256)]);
  replaceArchive("bomb", "1.0.0", bomb);
  replaceArchive(
    "linked",
    "1.0.0",
    rawTarball([
      { name: "linked/Chart.yaml", content: "apiVersion: v2\nname: linked\nversion: 1.0.0\n" },
      { name: "linked/values-prod.yaml", type: "2", linkname: "../../../../etc/passwd" },
    ]),
  );
  const ns = await testNamespace(cluster.client, "bomb");
  sc = await startSourceControllers(cluster, ns, { helm: true });
  await sc.create("helmrepositories", "charts", { url: repo.url });
  await sc.waitReady("helmrepositories", "charts");
}, 120_000);

afterAll(async () => {
  await sc?.stop();
  await repo?.close();
});

describe("a hostile chart archive", () => {
  it("that is a tar bomb is refused at its oversized file, naming the file, the limit and the flag; nothing stored", async () => {
    await sc.create("helmcharts", "bomb", chartSpec("bomb"));
    const chart = await sc.waitReady<HelmChart>("helmcharts", "bomb", "False");
    const ready = chart.status!.conditions!.find((c) => c.type === "Ready")!;
    expect(ready.reason).toBe("ChartPullError");
    expect(ready.message).toContain(
      "chart untar error: chart bomb-1.0.0: file 'bomb/big.bin' alone is larger than 1 GiB unpacked, the limit set by --artifact-max-size",
    );
    expect(chart.status?.artifact).toBeUndefined();
  });

  it("with a symbolic link out of the chart is refused by name; nothing stored", async () => {
    await sc.create("helmcharts", "linked", chartSpec("linked"));
    const chart = await sc.waitReady<HelmChart>("helmcharts", "linked", "False");
    const ready = chart.status!.conditions!.find((c) => c.type === "Ready")!;
    expect(ready.message).toBe(
      "chart untar error: archive entry 'linked/values-prod.yaml' is a symbolic link leading outside the directory (to '../../../../etc/passwd')",
    );
    expect(chart.status?.artifact).toBeUndefined();
  });

  it("does not stop the controller: an honest chart after them is packaged", async () => {
    await sc.create("helmcharts", "honest", chartSpec("honest"));
    const chart = await sc.waitReady<HelmChart>("helmcharts", "honest");
    expect(chart.status!.artifact!.revision).toBe("1.0.0+1");
  });
});

// A tenant shaping storage paths and downloads through its own chart repository's index (issue 28):
// a chart name that is a path into the unpacked-artifact cache, where another tenant's HelmRelease
// takes its chart from, and an index entry pointing at something that is not a chart (a
// cluster-internal address the controller would otherwise fetch and re-serve). The real controller
// and the real helm; the bystander's release must keep installing exactly its own chart.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmChart } from "../../src/api/source/helm.js";
import { benchChart } from "../support/charts.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";

const mgmt = planeCluster("management");
const SOURCE = "/apis/source.toolkit.fluxcd.io/v1";
const INTERNAL_SECRET = "internal-only-payload-7f3a";
let env: HelmReleaseEnv;
let evil: ChartRepo;
let internal: Server;
let internalUrl: string;
let attackerNs: string;
const shard = () => ({ "flotilla.dev/shard": env.ns });

const chartPath = (ns: string, name: string) => `${SOURCE}/namespaces/${ns}/helmcharts/${name}`;

/** The attacker's repository index, written by hand: entries a real repository would never list. */
function writeIndex(entries: Record<string, { version: string; url: string }>) {
  const lines = ["apiVersion: v1", "entries:"];
  for (const [name, e] of Object.entries(entries))
    lines.push(
      `  ${JSON.stringify(name)}:`,
      `  - name: ${JSON.stringify(name)}`,
      `    version: ${e.version}`,
      `    urls: [${JSON.stringify(e.url)}]`,
    );
  writeFileSync(join(evil.dir, "index.yaml"), `${lines.join("\n")}\n`);
}

/** The attacker's HelmRepository reads the new index (its handled token says so). */
async function reindex() {
  const token = new Date().toISOString();
  const path = `${SOURCE}/namespaces/${attackerNs}/helmrepositories/evil`;
  await mgmt.client.patch(path, "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: token } } });
  await eventually(
    "the attacker's HelmRepository to read its new index",
    async () =>
      (await mgmt.client.get<{ status?: { lastHandledReconcileAt?: string } }>(path)).status?.lastHandledReconcileAt ===
      token,
    90_000,
  );
}

async function attackerChart(name: string, chart: string) {
  await mgmt.client.create(`${SOURCE}/namespaces/${attackerNs}/helmcharts`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmChart",
    metadata: { name, namespace: attackerNs, labels: shard() },
    spec: { interval: "10m", chart, version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "evil" } },
  });
}

const chartFailed = (name: string) =>
  eventually(
    `HelmChart ${attackerNs}/${name} to fail`,
    async () => {
      const c = await mgmt.client.get<HelmChart>(chartPath(attackerNs, name));
      const ready = c.status?.conditions?.find((x) => x.type === "Ready");
      return ready?.status === "False" && c.status?.observedGeneration === c.metadata.generation
        ? { c, ready }
        : undefined;
    },
    90_000,
  );

beforeAll(async () => {
  env = await startHelmReleaseEnv("hostile-paths");
  await benchChart(env.charts);
  evil = await startChartRepo();
  await evil.addChart("evil", "1.0.0", {
    files: {
      "templates/pwned.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pwned\ndata:\n  by: attacker\n",
    },
  });
  // A cluster-internal service, as far as the controller can tell: loopback, answering anything.
  internal = createServer((_req, res) => res.end(`{"secret":"${INTERNAL_SECRET}"}`));
  await new Promise<void>((ok) => internal.listen(0, "127.0.0.1", () => ok()));
  internalUrl = `http://127.0.0.1:${(internal.address() as { port: number }).port}/metadata.tgz`;
  attackerNs = await testNamespace(mgmt.client, "hostile-paths-attacker");
  await mgmt.client.create(`${SOURCE}/namespaces/${attackerNs}/helmrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: { name: "evil", namespace: attackerNs, labels: shard() },
    spec: { interval: "10m", url: evil.url },
  });
}, 240_000);
afterAll(async () => {
  await env?.stop();
  await evil?.close();
  internal?.close();
});

describe("a tenant shaping storage paths and downloads", () => {
  it("a chart name that is a path into another tenant's unpacked chart is refused; the other release keeps installing its own chart", async () => {
    await env.createRelease("victim", { name: "bench", version: "1.0.0" }, { values: { round: 1 } });
    await env.waitReady("victim");
    const victimChart = await mgmt.client.get<HelmChart>(chartPath(env.ns, `${env.ns}-victim`));
    // The victim's unpacked chart: the cache directory named after its digest (and, for a single file, its name).
    const cache = join(env.storagePath, ".consumer-cache");
    const digestName = victimChart.status!.artifact!.digest.replace(":", "-");
    const victimDir = readdirSync(cache).find((n) => n.startsWith(digestName) && !n.endsWith(".unpacked"))!;
    const cacheDir = join(cache, victimDir);
    expect(readdirSync(cacheDir)).toEqual(["bench-1.0.0.tgz"]);

    const hostileName = `../../../.consumer-cache/${victimDir}/aaa`;
    writeIndex({ [hostileName]: { version: "1.0.0", url: `${evil.url}/evil-1.0.0.tgz` } });
    await reindex();
    await attackerChart("planted", hostileName);
    const { c, ready } = await chartFailed("planted");
    expect(ready.reason).toBe("InvalidChartReference");
    expect(ready.message).toContain("a chart name is a name, not a path");
    expect(c.status?.artifact).toBeUndefined();
    expect(readdirSync(cacheDir)).toEqual(["bench-1.0.0.tgz"]);

    // The victim upgrades (new values): still its own chart, nothing of the attacker's installed.
    await mgmt.client.patch(env.hrPath("victim"), "merge", { spec: { values: { round: 2 } } });
    const hr = await env.waitReady("victim");
    expect(hr.status?.lastAttemptedRevision).toBe("1.0.0");
    expect(JSON.parse(await env.helm(["list", "-n", env.ns, "-o", "json"]))).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "victim", chart: "bench-1.0.0", revision: "2" })]),
    );
    await expect(mgmt.client.get(`/api/v1/namespaces/${env.ns}/configmaps/pwned`)).rejects.toThrow(/not found/i);
  }, 300_000);

  it("an index entry pointing at something that is not a chart is refused as not a chart, never stored or served", async () => {
    writeIndex({ metadata: { version: "1.0.0", url: internalUrl } });
    await reindex();
    await attackerChart("proxy", "metadata");
    const { c, ready } = await chartFailed("proxy");
    expect(ready.reason).toBe("ChartPullError");
    expect(ready.message).toMatch(/is not a chart archive|holds no Chart\.yaml/);
    expect(ready.message).not.toContain(INTERNAL_SECRET);
    expect(c.status?.artifact).toBeUndefined();
    expect(existsSync(join(env.storagePath, "helmchart", attackerNs, "proxy"))).toBe(false);
    // Positive evidence the controller went on serving: the honest tenant's chart still reconciles.
    expect(condOf(await env.hr("victim"), "Ready")?.status).toBe("True");
  }, 300_000);
});

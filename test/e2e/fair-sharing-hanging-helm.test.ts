// Hostile tenant: HelmReleases of a chart whose post-install hook never completes (its Pod can never pull
// its image, no deadline), with spec.timeout 10h, to hold every helm slot of the controller (decision
// 0030). A bystander namespace's HelmRelease installs while they hang; helm's own --timeout is capped by
// --max-object-timeout, the cap named in the attacker's message, and no helm of the attacker outlives it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { benchChart, hookFailingChart } from "../support/charts.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { isAlive, processesMentioning } from "../support/process-table.js";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";

const mgmt = planeCluster("management");
/** More than the 4 helm slots. */
const ATTACKERS = 5;
let env: HelmReleaseEnv;
let bystander: string;

/** helm processes acting in namespace `ns` (helm's `-n <ns>`). */
const helmsIn = (ns: string) =>
  processesMentioning(ns).filter((p) => /(^|\/)helm$/.test(p.argv[0]!) && p.argv.includes(ns));

beforeAll(async () => {
  // Workers enough for every HelmRelease at once: the helm slots, not the work queue, are contended.
  env = await startHelmReleaseEnv("fairhelm", { extraArgs: ["--concurrent", "12", "--max-object-timeout", "90s"] });
  await hookFailingChart(env.charts, "hooked", "1.0.0");
  await benchChart(env.charts, "bench", "1.0.0");
  bystander = await testNamespace(mgmt.client, "fairhelm-bystander");
  const shard = { "flotilla.dev/shard": env.ns };
  await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${bystander}/helmrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: { name: "charts", namespace: bystander, labels: shard },
    spec: { interval: "10m", url: env.charts.url },
  });
}, 240_000);

afterAll(async () => {
  await env?.stop();
});

describe("hostile tenant: a chart whose hook never completes", () => {
  it("cannot hold every helm slot: a bystander's release installs meanwhile, and helm's timeout is capped by --max-object-timeout", async () => {
    for (let i = 0; i < ATTACKERS; i++)
      await env.createRelease(
        `hang-${i}`,
        { name: "hooked", version: "1.0.0" },
        { timeout: "10h", values: { hook: { fail: false, hang: true } } },
      );
    await eventually(
      "4 attacker helm installs hanging in their hook",
      async () => (helmsIn(env.ns).length >= 4 ? true : undefined),
      180_000,
    );
    const stuck = helmsIn(env.ns);
    // helm's own --timeout is the cap, not the 10h asked for.
    for (const p of stuck) expect(p.argv[p.argv.indexOf("--timeout") + 1]).toBe("1m30s");

    const attackInPlace = Date.now();
    const path = `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${bystander}/helmreleases/app`;
    await mgmt.client.create(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${bystander}/helmreleases`, {
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      kind: "HelmRelease",
      metadata: { name: "app", namespace: bystander, labels: { "flotilla.dev/shard": env.ns } },
      spec: {
        interval: "10m",
        chart: {
          metadata: { labels: { "flotilla.dev/shard": env.ns } },
          spec: { chart: "bench", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } },
        },
      },
    });
    await mgmt.client
      .patch(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${bystander}/helmrepositories/charts`, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
      })
      .catch(() => {});
    await eventually(
      "the bystander's release installed",
      async () => condOf(await mgmt.client.get<HelmRelease>(path), "Ready")?.status === "True",
      80_000,
      500,
    );
    // ... while the attacker's installs were all still hanging.
    expect(stuck.every((p) => isAlive(p.pid))).toBe(true);
    console.log(
      `[fair-sharing] ${stuck.length} helm hanging; bystander installed after ${((Date.now() - attackInPlace) / 1000).toFixed(1)} s`,
    );

    // At the cap helm gives up; the attacker is told its 10h was capped.
    const failed = await env.waitReady("hang-0", "False", 240_000);
    expect(condOf(failed, "Released")).toMatchObject({ status: "False", reason: "InstallFailed" });
    expect(condOf(failed, "Released")!.message).toContain(
      "the 'install' action's timeout 10h capped to 1m30s by --max-object-timeout",
    );
    await eventually("the first wave of helm to be gone", async () => stuck.every((p) => !isAlive(p.pid)), 30_000);
  }, 600_000);
});

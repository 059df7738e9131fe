// Hostile tenant: HelmReleases of a chart whose post-install hook never completes (its Pod can never pull
// its image, no deadline), with spec.timeout 10h, to hold every helm slot of the controller (decision
// 0030). A bystander namespace's HelmRelease installs while they hang; helm's own --timeout is capped by
// --max-object-timeout, the cap named in the attacker's message, and no install of the attacker outlives it.
// The installs run in the resident helm engine (decision 0042), which takes the same fair slots: a hanging
// install is seen in Helm's own storage (its release Secret stays pending-install), not as a helm process. The
// engine has 32 slots, more than --concurrent's 12 workers, which are themselves shared per namespace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { benchChart, hookFailingChart } from "../support/charts.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";

const mgmt = planeCluster("management");
/** More than the per-process helm path's 4 slots (--helm-engine=false; decision 0030). */
const ATTACKERS = 5;
let env: HelmReleaseEnv;
let bystander: string;

type ReleaseSecret = { metadata: { labels?: Record<string, string> } };
/** Releases whose install is in flight in namespace `ns`, as Helm's storage says (release Secrets pending-install). */
const pendingIn = async (ns: string) =>
  (
    await mgmt.client.listAll<ReleaseSecret>(`/api/v1/namespaces/${ns}/secrets`, {
      labelSelector: "owner=helm,status=pending-install",
    })
  ).items.map((s) => s.metadata.labels?.name ?? "");

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
  it("cannot starve a bystander: its release installs while the attacker's installs hang, and helm's timeout is capped by --max-object-timeout", async () => {
    for (let i = 0; i < ATTACKERS; i++)
      await env.createRelease(
        `hang-${i}`,
        { name: "hooked", version: "1.0.0" },
        { timeout: "10h", values: { hook: { fail: false, hang: true } } },
      );
    const stuck = await eventually(
      "4 attacker helm installs hanging in their hook",
      async () => {
        const pending = await pendingIn(env.ns);
        return pending.length >= 4 ? pending : undefined;
      },
      180_000,
    );

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
    const stillPending = await pendingIn(env.ns);
    expect(stuck.every((name) => stillPending.includes(name))).toBe(true);
    console.log(
      `[fair-sharing] ${stuck.length} attacker installs hanging; bystander installed after ${((Date.now() - attackInPlace) / 1000).toFixed(1)} s`,
    );

    // At the cap helm gives up; the attacker is told its 10h was capped.
    const failed = await env.waitReady("hang-0", "False", 240_000);
    expect(condOf(failed, "Released")).toMatchObject({ status: "False", reason: "InstallFailed" });
    expect(condOf(failed, "Released")!.message).toContain(
      "the 'install' action's timeout 10h capped to 1m30s by --max-object-timeout",
    );
    // helm's own --timeout was the cap, not the 10h asked for: the first wave's installs ended (failed) by it.
    await eventually(
      "the first wave of installs to end",
      async () => {
        const pending = await pendingIn(env.ns);
        return stuck.every((name) => !pending.includes(name)) ? true : undefined;
      },
      120_000,
    );
  }, 600_000);
});

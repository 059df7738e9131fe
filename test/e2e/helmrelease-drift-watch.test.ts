// Drift put back in seconds for HelmReleases too (decision 0026): the real `flotilla controller`
// watches what a release rendered (the post-renderer's helm.toolkit.fluxcd.io labels), and a hand edit
// or a deletion is corrected by the release's own drift correction long before its 1h interval — with
// no reconcile loop from the correction's own writes or from helm's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchChart } from "../support/charts.js";
import {
  deleteAndTime,
  driftQuiet,
  driftTriggers,
  editAndTime,
  JUDGED_LOG,
  reconcileCounts,
  watchesListed,
} from "../support/drift.js";
import { planeCluster } from "../support/fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-drift", { extraArgs: JUDGED_LOG });
  await benchChart(env.charts);
}, 120_000);
afterAll(() => env?.stop());

describe("HelmRelease drift watch", () => {
  it("puts back a hand edit and a deletion within seconds, without a reconcile loop", async () => {
    await env.createRelease("web", { name: "bench", version: "1.0.0" }, { interval: "1h" });
    await env.waitReady("web");
    await watchesListed(env.controller, env.ns, "web"); // the watches start once the inventory is in status
    const cm = `/api/v1/namespaces/${env.ns}/configmaps/web`;
    const deploy = `/apis/apps/v1/namespaces/${env.ns}/deployments/web`;
    const edit = await editAndTime(mgmt, cm, "message", "kubectl-edit");
    const recreate = await deleteAndTime(mgmt, deploy);
    console.log(
      `[drift-watch] HelmRelease edit→restored: ${edit.toFixed(2)} s, delete→recreated: ${recreate.toFixed(2)} s`,
    );
    expect(edit).toBeLessThan(30);
    expect(recreate).toBeLessThan(30);

    // No loop: the corrections' own writes and the deployment controller's status writes trigger nothing.
    // Settled: the watches have judged every write so far and nothing is on its way, twice over.
    const owner = `${env.ns}/web`;
    const applied = [
      { cluster: mgmt, path: cm, owner, id: `${env.ns}_web__ConfigMap` },
      { cluster: mgmt, path: deploy, owner, id: `${env.ns}_web_apps_Deployment` },
    ];
    await driftQuiet(env.controller, applied);
    const settled = await reconcileCounts(env.controller, "HelmRelease", env.ns);
    await driftQuiet(env.controller, applied);
    expect(await reconcileCounts(env.controller, "HelmRelease", env.ns)).toEqual(settled);
    expect(driftTriggers(env.controller)).toEqual(["web: edited by kubectl-edit", "web: deleted"]);
    const events = await mgmt.client.get<{ items: { reason: string; involvedObject: { name: string } }[] }>(
      `/api/v1/namespaces/${env.ns}/events`,
    );
    expect(events.items.filter((e) => e.involvedObject.name === "web").map((e) => e.reason)).toContain(
      "DriftCorrected",
    );
  }, 240_000);
});

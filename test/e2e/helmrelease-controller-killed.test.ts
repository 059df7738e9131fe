// The controller killed (SIGKILL, its helm with it, as when a pod is evicted) in the middle of an
// upgrade: Helm's storage is left with a revision in `pending-upgrade`, which blocks every later helm
// action. After a restart the release is unlocked as helm-controller does (the stale revision marked
// failed, an Unlocked event) and converges to a new deployed revision.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { hookFailingChart } from "../support/charts.js";
import { startController } from "../support/controller-process.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-killed");
  await hookFailingChart(env.charts, "hooked", "1.0.0");
}, 120_000);
afterAll(() => env?.stop());

/** Helm's own record of each revision: version → status (the label helm keeps on its Secret). */
async function storedStatuses(release: string): Promise<Record<string, string>> {
  const list = await mgmt.client.get<{ items: { metadata: { labels: Record<string, string> } }[] }>(
    `/api/v1/namespaces/${env.ns}/secrets`,
    { labelSelector: `owner=helm,name=${release}` },
  );
  return Object.fromEntries(list.items.map((s) => [s.metadata.labels.version!, s.metadata.labels.status!]));
}

/** SIGKILL to the controller's children (helm, its post-renderer) and then to the controller. */
function killHard(pid: number): void {
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter(Boolean);
  for (const c of children) process.kill(c, "SIGKILL");
  process.kill(pid, "SIGKILL");
}

describe("HelmRelease: the controller killed during an upgrade", () => {
  it("after a restart the release is not stuck in pending-upgrade and converges", async () => {
    await env.createRelease(
      "killed",
      { name: "hooked", version: "1.0.0" },
      {
        timeout: "10m",
        values: { hook: { fail: false } },
      },
    );
    await env.waitReady("killed");
    // The upgrade's post-upgrade hook hangs (helm waits up to the 10m timeout): kill while it is in flight.
    await mgmt.client.patch(env.hrPath("killed"), "merge", { spec: { values: { hook: { fail: false, hang: true } } } });
    await eventually(
      "revision 2 pending-upgrade in Helm's storage",
      async () => (await storedStatuses("killed"))["2"] === "pending-upgrade",
      120_000,
      500,
    );
    killHard(env.controller.child.pid!);
    await env.controller.exited();
    expect(await storedStatuses("killed")).toEqual({ "1": "deployed", "2": "pending-upgrade" });

    // What the operator does next: mend the values; a new controller process takes over.
    await mgmt.client.patch(env.hrPath("killed"), "merge", {
      spec: { values: { hook: { fail: false, hang: false } } },
    });
    const restarted = startController({
      namespace: env.ns,
      shard: env.ns,
      storagePath: makeWorkDir("flotilla-hr-killed-restart-"),
    });
    try {
      const o = await env.waitReady("killed", "True", 240_000);
      expect(condOf(o, "Ready")!.message).toBe(
        `Helm upgrade succeeded for release ${env.ns}/killed.v3 with chart hooked@1.0.0`,
      );
      expect(await storedStatuses("killed")).toEqual({ "1": "superseded", "2": "failed", "3": "deployed" });
      const events = await mgmt.client.get<{
        items: { reason: string; message: string; involvedObject: { name: string } }[];
      }>(`/api/v1/namespaces/${env.ns}/events`);
      const unlocked = events.items.filter((e) => e.involvedObject.name === "killed" && e.reason === "Unlocked");
      expect(unlocked.map((e) => e.message)).toEqual([
        `Release ${env.ns}/killed.v2 unlocked from stale 'pending-upgrade' state`,
      ]);
    } finally {
      restarted.child.kill("SIGTERM");
    }
  }, 420_000);
});

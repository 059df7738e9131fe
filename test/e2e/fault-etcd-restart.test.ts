// Fault: the shared etcd under every plane restarts in the middle of an apply of a few hundred objects
// by the real controller process. Every apiserver loses its datastore for a while; the apply is
// retried and converges with exactly Git's objects, none lost or wrongly pruned, and the whole fleet
// is Ready again before the test ends (the other e2e files share it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetStatus, readFleetState, restartEtcd } from "../../src/local/index.js";
import { eventually, testFleet } from "../support/fleet-context.js";
import {
  cmName,
  FLUX_LEADER_ELECTION,
  type MidApplyScenario,
  range,
  startMidApplyScenario,
} from "../support/mid-apply.js";

let s: MidApplyScenario;

const fleetReady = () =>
  eventually(
    "every plane of the fleet Ready",
    async () => {
      const status = await fleetStatus(testFleet().dir);
      return status.etcd?.running && status.planes.every((p) => p.health === "Ready") ? status : undefined;
    },
    180_000,
  );

beforeAll(async () => {
  s = await startMidApplyScenario("etcdrestart");
});

afterAll(async () => {
  // Never leave the shared fleet without its datastore.
  if (!(await fleetStatus(testFleet().dir)).etcd?.running) await restartEtcd(testFleet().dir, 120_000);
  await s?.cleanup();
});

describe("fault: shared etcd restart mid-apply", () => {
  it("converges to exactly Git's objects, losing and wrongly pruning none, and the fleet is whole again", async () => {
    const rev1 = await s.commit(range(0, 200), "1");
    const controller = s.startController(FLUX_LEADER_ELECTION);
    await s.createObjects();
    await s.waitConverged(rev1);
    const before = await s.owned();
    expect(before.size).toBe(200);

    const rev2 = await s.commit(range(50, 300), "2", range(0, 50));
    const v2 = range(50, 300).map(cmName);
    const atFault = await s.midApply(v2, "2");
    const etcdPid = readFleetState(testFleet().dir)!.etcd!.process.pid;
    await restartEtcd(testFleet().dir, 120_000);
    expect(readFleetState(testFleet().dir)!.etcd!.process.pid).not.toBe(etcdPid);
    // The fault fell inside the apply: it was still under way once the etcd was back.
    const whenBack = await s.written(v2, "2");
    expect(whenBack).toBeLessThan(v2.length);

    const k = await s.waitConverged(rev2);
    console.info(
      `etcd restart: ${atFault}/${v2.length} written when it began, ${whenBack} when it was over; failed applies logged: ${s.failures(controller).length}`,
    );
    // Ridden out by the same process: it never exited.
    expect(controller.child.exitCode).toBeNull();
    expect(controller.child.signalCode).toBeNull();
    expect(s.inventoryNames(k)).toEqual(v2);
    const after = await s.owned();
    expect([...after.keys()].sort()).toEqual(v2);
    expect([...after.values()].every((o) => o.version === "2")).toBe(true);
    for (const name of range(50, 200).map(cmName)) expect(after.get(name)!.uid).toBe(before.get(name)!.uid);
    await fleetReady();
  }, 360_000);
});

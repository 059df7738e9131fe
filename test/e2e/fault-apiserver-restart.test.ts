// Fault: the management plane's kube-apiserver restarts in the middle of an apply of a few hundred
// objects by the real controller process. The apply fails part-way, is retried, and converges: the
// inventory is exactly Git's, every object Git still declares kept its identity (never pruned and
// re-created), and the one Git dropped is pruned.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restartComponent } from "../../src/local/index.js";
import { testFleet } from "../support/fleet-context.js";
import {
  cmName,
  FLUX_LEADER_ELECTION,
  type MidApplyScenario,
  range,
  startMidApplyScenario,
} from "../support/mid-apply.js";

let s: MidApplyScenario;

beforeAll(async () => {
  s = await startMidApplyScenario("apirestart");
});

afterAll(async () => {
  await s?.cleanup();
});

describe("fault: management kube-apiserver restart mid-apply", () => {
  it("converges to exactly Git's objects, losing and wrongly pruning none", async () => {
    const rev1 = await s.commit(range(0, 200), "1");
    const controller = s.startController(FLUX_LEADER_ELECTION);
    await s.createObjects();
    await s.waitConverged(rev1);
    const before = await s.owned();
    expect(before.size).toBe(200);

    // Version 2: 0–49 dropped, 50–199 changed, 200–299 added; the apiserver restarts while it is written.
    const rev2 = await s.commit(range(50, 300), "2", range(0, 50));
    const v2 = range(50, 300).map(cmName);
    const atFault = await s.midApply(v2, "2");
    await restartComponent(testFleet().dir, "management", "kube-apiserver", 120_000);
    // The fault fell inside the apply: it was still under way once the apiserver was back.
    const whenBack = await s.written(v2, "2");
    expect(whenBack).toBeLessThan(v2.length);

    const k = await s.waitConverged(rev2);
    console.info(
      `apiserver restart: ${atFault}/${v2.length} written when it began, ${whenBack} when it was over; failed applies logged: ${s.failures(controller).length}`,
    );
    // Ridden out by the same process: it never exited.
    expect(controller.child.exitCode).toBeNull();
    expect(controller.child.signalCode).toBeNull();
    expect(s.inventoryNames(k)).toEqual(v2);
    const after = await s.owned();
    expect([...after.keys()].sort()).toEqual(v2);
    expect([...after.values()].every((o) => o.version === "2")).toBe(true);
    // Kept, not deleted and re-created: same uid as before the fault.
    for (const name of range(50, 200).map(cmName)) expect(after.get(name)!.uid).toBe(before.get(name)!.uid);
  }, 360_000);
});

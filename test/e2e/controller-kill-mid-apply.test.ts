// `flotilla controller` SIGKILLed in the middle of applying a Kustomization, then started again:
// it converges, the inventory is exactly what Git declares, what the previous revision applied and
// Git dropped is pruned, and nothing is lost — the status of the last completed reconcile is the
// record the restarted process works from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import type { ControllerProcess } from "../support/controller-process.js";
import { cmName, type MidApplyScenario, range, startMidApplyScenario } from "../support/mid-apply.js";

let s: MidApplyScenario;

/** Kills the controller once some, but not all, of `names` exist at `version`: in the middle of the apply. */
async function killMidApply(c: ControllerProcess, names: string[], version: string): Promise<number> {
  const seen = await s.midApply(names, version);
  c.child.kill("SIGKILL");
  await c.exited();
  return seen;
}

beforeAll(async () => {
  s = await startMidApplyScenario("killapply");
});

afterAll(async () => {
  await s?.cleanup();
});

describe("controller killed mid-apply", () => {
  it("converges after a restart with an exact inventory, prunes what the new revision dropped, and loses nothing", async () => {
    const v1 = range(0, 300).map(cmName);
    const rev1 = await s.commit(range(0, 300), "1");
    let c = s.startController();
    await s.createObjects();

    // First apply: killed part-way, before any inventory was recorded.
    const partial = await killMidApply(c, v1, "1");
    expect(partial).toBeGreaterThan(0);
    const killed = await s.cluster.client.get<Kustomization>(s.ksPath);
    expect(killed.status?.inventory?.entries ?? []).toHaveLength(0);
    c = s.startController();
    let k = await s.waitConverged(rev1, 120_000);
    expect(s.inventoryNames(k)).toEqual(v1);
    expect([...(await s.owned()).keys()].sort()).toEqual(v1);

    // Second revision drops 0–99 and adds 300–499; killed while adding.
    const rev2 = await s.commit(range(300, 500), "2", range(0, 100));
    await killMidApply(c, range(300, 500).map(cmName), "2");
    k = await s.cluster.client.get<Kustomization>(s.ksPath);
    // The record of the last completed reconcile is intact: still revision 1's 300 objects.
    expect(k.status!.lastAppliedRevision).toBe(rev1);
    expect(k.status!.inventory!.entries).toHaveLength(300);

    s.startController();
    k = await s.waitConverged(rev2, 120_000);
    const v2 = range(100, 500).map(cmName);
    expect(s.inventoryNames(k)).toEqual(v2);
    const owned = await s.owned();
    expect([...owned.keys()].sort()).toEqual(v2);
    expect(owned.get(cmName(450))!.version).toBe("2");
    // Two applies of 300 and 400 objects at 20 requests/s plus two restarts: minutes on a loaded machine.
  }, 360_000);
});

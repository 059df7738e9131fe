// Fault: the management plane's kube-apiserver restarts in the middle of an apply of a few hundred
// objects by the real controller process. The apply fails part-way, is retried, and converges: the
// inventory is exactly Git's, every object Git still declares kept its identity (never pruned and
// re-created), and the one Git dropped is pruned.
import { afterAll, beforeAll, describe, it } from "vitest";
import { restartComponent } from "../../src/local/index.js";
import { testFleet } from "../support/fleet-context.js";
import { convergesThroughFault, type MidApplyScenario, startMidApplyScenario } from "../support/mid-apply.js";

let s: MidApplyScenario;

beforeAll(async () => {
  s = await startMidApplyScenario("apirestart");
});

afterAll(async () => {
  await s?.cleanup();
});

describe("fault: management kube-apiserver restart mid-apply", () => {
  it("converges to exactly Git's objects, losing and wrongly pruning none", async () => {
    await convergesThroughFault(s, "apiserver restart", () =>
      restartComponent(testFleet().dir, "management", "kube-apiserver", 120_000),
    );
  }, 360_000);
});

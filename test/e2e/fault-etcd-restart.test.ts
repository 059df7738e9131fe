// Fault: the shared etcd under every plane restarts in the middle of an apply of a few hundred objects
// by the real controller process. Every apiserver loses its datastore for a while; the apply is
// retried and converges with exactly Git's objects, none lost or wrongly pruned, and the whole fleet
// is Ready again before the test ends (the other e2e files share it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetStatus, readFleetState, restartEtcd } from "../../src/local/index.js";
import { eventually, testFleet } from "../support/fleet-context.js";
import { convergesThroughFault, type MidApplyScenario, startMidApplyScenario } from "../support/mid-apply.js";

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
    await convergesThroughFault(s, "etcd restart", async () => {
      const etcdPid = readFleetState(testFleet().dir)!.etcd!.process.pid;
      await restartEtcd(testFleet().dir, 120_000);
      expect(readFleetState(testFleet().dir)!.etcd!.process.pid).not.toBe(etcdPid);
    });
    await fleetReady();
  }, 360_000);
});

// The controller runtime on a real apiserver: level-triggered, never two reconciles of one object at
// once, retries with backoff, periodic requeue, graceful stop, and leader election on a Lease.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type Reconciler, Controller } from "../../src/runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { LeaderElector } from "../../src/runtime/leader-election.js";
import { createLogger } from "../../src/runtime/logger.js";
import { controllerMetrics } from "../../src/runtime/metrics.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap } from "../support/objects.js";

const log = createLogger({ level: "error", write: () => {} });
const CM = { group: "", version: "v1", kind: "ConfigMap" };

describe("controller runtime", () => {
  it("reconciles on create and on a requestedAt annotation, never one object twice at once, and stops gracefully", async () => {
    const cluster = planeCluster("tenant1");
    const ns = await testNamespace(cluster.client, "runtime");
    const calls: string[] = [];
    const seen: string[] = []; // reconcile starts of "one" and "marker", in order
    let inFlight = 0;
    let maxInFlightPerKey = 0;
    const active = new Map<string, number>();
    let slow = false;
    const reconciler: Reconciler = {
      async reconcile(req) {
        if (req.name === "marker") seen.push("marker");
        if (req.name !== "one") return;
        seen.push("one");
        const key = `${req.namespace}/${req.name}`;
        active.set(key, (active.get(key) ?? 0) + 1);
        maxInFlightPerKey = Math.max(maxInFlightPerKey, active.get(key)!);
        inFlight++;
        calls.push(req.name);
        await sleep(slow ? 1500 : 50);
        inFlight--;
        active.set(key, active.get(key)! - 1);
      },
    };
    const metrics = controllerMetrics();
    const controller = new Controller({
      name: "test",
      kind: CM,
      cluster,
      reconciler,
      log,
      metrics,
      namespace: ns,
      concurrency: 4,
    });
    await controller.start();
    await cluster.client.create(`/api/v1/namespaces/${ns}/configmaps`, configMap(ns, "one"));
    await eventually("the create to be reconciled", async () => calls.includes("one"));

    // A data change is not a spec (generation) change for a ConfigMap: not reconciled. Evidence, not a
    // sleep: a marker object created after the change is reconciled, and the watch delivers events in order
    // into a FIFO queue, so a reconcile of "one" caused by the change would have started before the marker's.
    const before = calls.length;
    await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/one`, "merge", { data: { a: "b" } });
    seen.length = 0;
    await cluster.client.create(`/api/v1/namespaces/${ns}/configmaps`, configMap(ns, "marker"));
    await eventually("the later marker object to be reconciled", async () => seen.includes("marker"));
    expect(seen).toEqual(["marker"]);
    expect(calls.length).toBe(before);
    // ...but a requestedAt annotation is, and a burst of them never overlaps on one key.
    for (let i = 0; i < 10; i++) {
      await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/one`, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: `t${i}` } },
      });
    }
    await eventually("the requests to be reconciled", async () => calls.length > before && inFlight === 0);
    expect(maxInFlightPerKey).toBe(1);
    expect(metrics.registry.render()).toMatch(
      /gotk_reconcile_duration_seconds_count\{kind="ConfigMap",name="one",namespace="[^"]+"\} \d+/,
    );

    // Stop waits for the reconcile in flight.
    slow = true;
    await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/one`, "merge", {
      metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: "last" } },
    });
    await eventually("a reconcile in flight", async () => inFlight > 0);
    await controller.stop();
    expect(inFlight).toBe(0);
  });

  it("retries a failing reconcile with backoff and requeues a successful one after its interval", async () => {
    const cluster = planeCluster("tenant1");
    const ns = await testNamespace(cluster.client, "retry");
    const times: number[] = [];
    let failuresLeft = 2;
    const controller = new Controller({
      name: "retry",
      kind: CM,
      cluster,
      log,
      namespace: ns,
      jitterPct: 0,
      reconciler: {
        async reconcile(req) {
          if (req.name !== "flaky") return; // the namespace's kube-root-ca.crt is watched too
          times.push(Date.now());
          if (failuresLeft-- > 0) throw new Error("not yet");
          return { requeueAfterMs: 300 };
        },
      },
    });
    await controller.start();
    await cluster.client.create(`/api/v1/namespaces/${ns}/configmaps`, configMap(ns, "flaky"));
    await eventually("two failures, a success and a periodic requeue", async () => times.length >= 4, 30_000);
    await controller.stop();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(700); // 750 ms backoff
    expect(gaps[1]).toBeGreaterThanOrEqual(1400); // then 1.5 s
    expect(gaps[2]).toBeGreaterThanOrEqual(250); // requeue after the 300 ms interval...
    // ...and not the next backoff step (3 s): a success resets the backoff. The bound is the backoff, not a
    // tight timing, so a loaded machine cannot make it flake.
    expect(gaps[2]).toBeLessThan(2900);
  });
});

describe("leader election", () => {
  it("elects exactly one of two candidates and hands over when the leader dies", async () => {
    const cluster = planeCluster("tenant2");
    const ns = await testNamespace(cluster.client, "lease");
    // Generous timing: a renewal may take seconds on a loaded 2-core machine without costing the lease.
    const timing = { leaseDurationMs: 8000, renewDeadlineMs: 6000, retryPeriodMs: 500 };
    const a = new LeaderElector(
      cluster.client,
      { namespace: ns, name: "flotilla-leader", identity: "a", ...timing },
      log,
    );
    const b = new LeaderElector(
      cluster.client,
      { namespace: ns, name: "flotilla-leader", identity: "b", ...timing },
      log,
    );
    const leading = new Set<string>();
    let mostLeadersAtOnce = 0;
    const started = (id: string) => {
      leading.add(id);
      mostLeadersAtOnce = Math.max(mostLeadersAtOnce, leading.size);
    };
    void a.run(
      () => started("a"),
      () => leading.delete("a"),
    );
    void b.run(
      () => started("b"),
      () => leading.delete("b"),
    );
    await eventually("a leader", async () => leading.size === 1);
    // Evidence that the other candidate kept trying and still never led: the leader renewed twice meanwhile.
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/flotilla-leader`;
    const renewTime = async () => (await cluster.client.get<{ spec: { renewTime: string } }>(leasePath)).spec.renewTime;
    let renewals = 0;
    let lastRenew = await renewTime();
    await eventually("two renewals of the lease", async () => {
      const now = await renewTime();
      if (now !== lastRenew) {
        renewals++;
        lastRenew = now;
      }
      return renewals >= 2;
    });
    expect(leading.size).toBe(1);
    expect(mostLeadersAtOnce).toBe(1);
    const [first] = [...leading];
    const [leader, other] = first === "a" ? [a, b] : [b, a];

    // The leader "dies": it stops renewing without releasing the lease.
    const killedAt = Date.now();
    await leader.stop(false);
    leading.delete(first!);
    await eventually("the other candidate to take over", async () => leading.has(other.options.identity), 60_000);
    // Not before the dead leader's lease expired: the hand-over waits for it, whatever the machine's load.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(timing.leaseDurationMs - 1000);
    expect(mostLeadersAtOnce).toBe(1);
    const lease = await cluster.client.get<{ spec: { holderIdentity: string; leaseTransitions: number } }>(leasePath);
    expect(lease.spec.holderIdentity).toBe(other.options.identity);
    expect(lease.spec.leaseTransitions).toBe(1);
    await other.stop();
  });
});

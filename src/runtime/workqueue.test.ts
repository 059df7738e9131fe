import { describe, expect, it, vi } from "vitest";
import { WorkQueue } from "./workqueue.js";

describe("work queue (client-go semantics)", () => {
  it("processes a key queued twice once", async () => {
    const q = new WorkQueue();
    q.add("a");
    q.add("a");
    q.add("b");
    expect(q.depth).toBe(2);
    expect(await q.get()).toBe("a");
    expect(await q.get()).toBe("b");
  });

  it("never hands a key to two workers: re-added while processing, it comes back after done", async () => {
    const q = new WorkQueue();
    q.add("a");
    const key = await q.get();
    q.add("a");
    expect(q.depth).toBe(0);
    let second: string | undefined;
    const waiting = q.get().then((k) => (second = k));
    await Promise.resolve();
    expect(second).toBeUndefined();
    q.done(key!);
    await waiting;
    expect(second).toBe("a");
  });

  it("says a key is queued until a worker takes it, and again when re-added while processing", async () => {
    const q = new WorkQueue();
    q.add("a");
    expect([q.isQueued("a"), q.isQueued("b")]).toEqual([true, false]);
    const key = await q.get();
    expect([q.isQueued("a"), q.isProcessing("a")]).toEqual([false, true]);
    q.add("a");
    expect(q.isQueued("a")).toBe(true);
    q.done(key!);
  });

  it("backs off per key from 750 ms doubling to 15 minutes, and forgets on success", () => {
    const q = new WorkQueue();
    const delays: number[] = [];
    for (let i = 0; i < 14; i++) {
      delays.push(q.nextBackoff("x"));
      q.addRateLimited("x");
    }
    expect(delays.slice(0, 4)).toEqual([750, 1500, 3000, 6000]);
    expect(delays.at(-1)).toBe(15 * 60 * 1000);
    expect(q.nextBackoff("other")).toBe(750);
    q.forget("x");
    expect(q.nextBackoff("x")).toBe(750);
    void q.shutDown();
  });

  it("adds scheduled keys when due, keeping the earliest schedule", async () => {
    vi.useFakeTimers();
    try {
      const q = new WorkQueue();
      q.addAfter("a", 10_000);
      q.addAfter("a", 1_000);
      q.addAfter("a", 5_000);
      vi.advanceTimersByTime(999);
      expect(q.depth).toBe(0);
      vi.advanceTimersByTime(1);
      expect(q.depth).toBe(1);
      vi.advanceTimersByTime(20_000);
      expect(q.depth).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shuts down: waiting workers get undefined, and shutDown waits for keys in progress", async () => {
    const q = new WorkQueue();
    q.add("busy");
    const key = await q.get();
    const idle = q.get();
    let drained = false;
    const stopping = q.shutDown().then(() => (drained = true));
    expect(await idle).toBeUndefined();
    await Promise.resolve();
    expect(drained).toBe(false);
    q.done(key!);
    await stopping;
    expect(drained).toBe(true);
  });
});

describe("work queue shared fairly between namespaces", () => {
  const taken = async (q: WorkQueue, n: number) => {
    const keys: string[] = [];
    for (let i = 0; i < n; i++) void q.get().then((k) => keys.push(k!));
    await new Promise((r) => setTimeout(r, 5));
    return keys;
  };

  it("lets one namespace use the whole capacity, and no more", async () => {
    const q = new WorkQueue(undefined, 4);
    expect(q.workers).toBe(6);
    for (let i = 0; i < 10; i++) q.add(`busy/o-${i}`);
    expect(await taken(q, 6)).toEqual(["busy/o-0", "busy/o-1", "busy/o-2", "busy/o-3"]);
  });

  it("hands a key of a namespace with nothing in progress to a reserve worker while another fills the capacity", async () => {
    const q = new WorkQueue(undefined, 4);
    for (let i = 0; i < 10; i++) q.add(`attacker/o-${i}`);
    const first = await taken(q, 4);
    const idle = taken(q, 2);
    q.add("bystander/app");
    q.add("bystander/other"); // its namespace now has one in progress: waits for the capacity
    expect(await idle).toEqual(["bystander/app"]);
    expect(first).toHaveLength(4);
    // Keys in progress count against the capacity whatever their namespace: with the bystander's, one
    // attacker key done leaves 4 in progress, and the attacker's next key waits for a second.
    q.done(first[0]!);
    await new Promise((r) => setTimeout(r, 5));
    expect(q.isProcessing("attacker/o-4")).toBe(false);
    q.done(first[1]!);
    await new Promise((r) => setTimeout(r, 5));
    expect(q.isProcessing("attacker/o-4")).toBe(true);
  });
});

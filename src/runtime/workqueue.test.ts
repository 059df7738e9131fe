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

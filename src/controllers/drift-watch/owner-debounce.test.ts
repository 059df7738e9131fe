import { afterEach, describe, expect, it, vi } from "vitest";
import { OwnerDebounce, type OwnerDebounceOptions, OwnerSerial, QUIET_MS } from "./owner-debounce.js";

function debounce<T>(o: Partial<OwnerDebounceOptions<T>> & Pick<OwnerDebounceOptions<T>, "due">) {
  return new OwnerDebounce<T>({
    delayMs: 1000,
    maxDelayMs: () => 300_000,
    busy: () => false,
    now: () => Date.now(),
    ...o,
  });
}

describe("OwnerDebounce", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a burst for one owner is one call, with the latest item per object", () => {
    vi.useFakeTimers();
    const calls: [string, string[], boolean][] = [];
    const d = debounce<string>({ due: (o, items, overflow) => calls.push([o, items, overflow]) > 0 });
    d.add("ns/a", "cm", "edit-1");
    d.add("ns/a", "cm", "edit-2");
    d.add("ns/a", "deploy", "deleted");
    d.add("ns/b", "cm", "edit");
    vi.advanceTimersByTime(999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([
      ["ns/a", ["edit-2", "deleted"], false],
      ["ns/b", ["edit"], false],
    ]);
    expect(d.size).toBe(0);
  });

  it("says which owners have changes waiting, until they are handed on", () => {
    vi.useFakeTimers();
    const d = debounce<string>({ due: () => true });
    d.add("ns/a", "cm", "edit");
    expect([d.has("ns/a"), d.has("ns/b")]).toEqual([true, false]);
    vi.advanceTimersByTime(1000);
    expect(d.has("ns/a")).toBe(false);
  });

  it("waits while the owner is being reconciled, then fires once", () => {
    vi.useFakeTimers();
    let busy = true;
    const calls: string[] = [];
    const d = debounce<string>({ busy: () => busy, due: (o) => calls.push(o) > 0 });
    d.add("ns/a", "cm", "x");
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual([]);
    busy = false;
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(["ns/a"]);
  });

  it("past its bound an owner keeps no more items and is due regardless (overflow)", () => {
    vi.useFakeTimers();
    const calls: [number, boolean][] = [];
    const d = debounce<number>({ delayMs: 10, maxItems: 3, due: (_, items, of) => calls.push([items.length, of]) > 0 });
    for (let i = 0; i < 10; i++) d.add("ns/a", String(i), i);
    vi.advanceTimersByTime(10);
    expect(calls).toEqual([[3, true]]);
  });

  it("stop drops what is pending", () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const d = debounce<string>({ delayMs: 10, due: (o) => calls.push(o) > 0 });
    d.add("ns/a", "cm", "x");
    d.stop();
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([]);
  });

  it("a write war backs off: each trigger soon after the owner's last drift reconcile doubles its delay, up to the cap", () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const d = debounce<string>({ maxDelayMs: () => 5000, due: (_o, _i, _of, ms) => delays.push(ms) > 0 });
    // Another controller rewrites the field 100 ms after each reconcile.
    for (let i = 0; i < 6; i++) {
      const wait = d.delayFor("ns/a");
      d.add("ns/a", "deploy", "scaled");
      vi.advanceTimersByTime(wait + 100);
    }
    expect(delays).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
    // Another owner is not slowed down.
    expect(d.delayFor("ns/b")).toBe(1000);
  });

  it("a quiet period resets the backoff", () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const d = debounce<string>({ due: (_o, _i, _of, ms) => delays.push(ms) > 0 });
    d.add("ns/a", "cm", "x");
    vi.advanceTimersByTime(1000);
    d.add("ns/a", "cm", "x");
    vi.advanceTimersByTime(2000);
    expect(d.delayFor("ns/a")).toBe(4000);
    vi.advanceTimersByTime(QUIET_MS + 1);
    expect(d.delayFor("ns/a")).toBe(1000);
    d.add("ns/a", "cm", "x");
    vi.advanceTimersByTime(1000);
    expect(delays).toEqual([1000, 2000, 1000]);
  });

  it("changes that queued nothing (our own writes) do not count toward the backoff", async () => {
    vi.useFakeTimers();
    const d = debounce<string>({ due: async () => false });
    d.add("ns/a", "cm", "ours");
    await vi.advanceTimersByTimeAsync(1000);
    expect(d.delayFor("ns/a")).toBe(1000);
    d.forget("ns/a");
  });

  it("a throwing due() escapes no timer", () => {
    vi.useFakeTimers();
    const d = debounce<string>({
      due: () => {
        throw new Error("boom");
      },
    });
    d.add("ns/a", "cm", "x");
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
  });
});

describe("OwnerSerial", () => {
  it("runs one task at a time per owner; a failing task is reported and neither rejects nor holds up the next", async () => {
    const errors: string[] = [];
    const s = new OwnerSerial((owner, err) => errors.push(`${owner}: ${(err as Error).message}`));
    const ran: string[] = [];
    const failing = s.run("ns/a", () => {
      throw new Error("want failed");
    });
    const next = s.run("ns/a", async () => void ran.push("a2"));
    await expect(failing).resolves.toBeUndefined();
    await next;
    await expect(s.settled()).resolves.toBeUndefined();
    expect(errors).toEqual(["ns/a: want failed"]);
    expect(ran).toEqual(["a2"]);
  });
});

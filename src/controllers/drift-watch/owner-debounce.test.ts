import { afterEach, describe, expect, it, vi } from "vitest";
import { OwnerDebounce } from "./owner-debounce.js";

describe("OwnerDebounce", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a burst for one owner is one call, with the latest item per object", () => {
    vi.useFakeTimers();
    const calls: [string, string[], boolean][] = [];
    const d = new OwnerDebounce<string>(
      1000,
      () => false,
      (o, items, overflow) => calls.push([o, items, overflow]),
    );
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

  it("waits while the owner is being reconciled, then fires once", () => {
    vi.useFakeTimers();
    let busy = true;
    const calls: string[] = [];
    const d = new OwnerDebounce<string>(
      1000,
      () => busy,
      (o) => calls.push(o),
    );
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
    const d = new OwnerDebounce<number>(
      10,
      () => false,
      (_, items, overflow) => calls.push([items.length, overflow]),
      3,
    );
    for (let i = 0; i < 10; i++) d.add("ns/a", String(i), i);
    vi.advanceTimersByTime(10);
    expect(calls).toEqual([[3, true]]);
  });

  it("stop drops what is pending", () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const d = new OwnerDebounce<string>(
      10,
      () => false,
      (o) => calls.push(o),
    );
    d.add("ns/a", "cm", "x");
    d.stop();
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([]);
  });
});

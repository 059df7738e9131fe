import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

describe("semaphore", () => {
  it("lets at most `limit` holders in and the rest in arrival order", async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const a = await s.acquire();
    const b = await s.acquire();
    const c = s.acquire().then((r) => (order.push(3), r));
    const d = s.acquire().then((r) => (order.push(4), r));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    a();
    a(); // releasing twice frees one slot only
    (await c)();
    b();
    (await d)();
    expect(order).toEqual([3, 4]);
  });

  it("drops a waiter whose signal aborts, with the signal's reason", async () => {
    const s = new Semaphore(1);
    const held = await s.acquire();
    const ctl = new AbortController();
    const waiting = s.acquire(ctl.signal);
    ctl.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    held();
    (await s.acquire())();
  });

  it("admits more waiters at once when resized upwards", async () => {
    const s = new Semaphore(1);
    await s.acquire();
    const next = s.acquire();
    s.resize(2);
    expect(typeof (await next)).toBe("function");
  });
});

describe("semaphore shared fairly between keys", () => {
  const settle = () => new Promise((r) => setTimeout(r, 5));

  it("lets one key alone use every slot, as an unkeyed semaphore does", async () => {
    const s = new Semaphore(4);
    const held = await Promise.all([1, 2, 3, 4].map(() => s.acquire(undefined, "a")));
    let fifth = false;
    const next = s.acquire(undefined, "a").then((r) => ((fifth = true), r));
    await settle();
    expect(fifth).toBe(false);
    expect(s.holding("a")).toBe(4);
    held[0]!();
    (await next)();
  });

  it("admits a key that holds nothing at once while another key holds every slot", async () => {
    const s = new Semaphore(8);
    for (let i = 0; i < 8; i++) await s.acquire(undefined, "attacker");
    for (let i = 0; i < 3; i++) void s.acquire(undefined, "attacker");
    const bystander = await s.acquire(undefined, "bystander");
    expect(s.holding("bystander")).toBe(1);
    // Its next process waits for an ordinary slot: the reserve is for keys holding nothing.
    let second = false;
    void s.acquire(undefined, "bystander").then(() => (second = true));
    await settle();
    expect(second).toBe(false);
    bystander();
    await settle();
    expect(second).toBe(true);
    expect(s.holding("attacker")).toBe(8);
  });

  it("never holds more than limit + ceil(limit/2) slots, however many keys ask", async () => {
    const s = new Semaphore(4);
    const granted: string[] = [];
    for (let i = 0; i < 10; i++) void s.acquire(undefined, `ns-${i}`).then(() => granted.push(`ns-${i}`));
    await settle();
    expect(granted).toHaveLength(6);
    expect(s.reserve).toBe(2);
  });

  it("serves waiting keys round-robin, not in arrival order", async () => {
    const s = new Semaphore(2); // reserve 1: three holders at most
    const holders = [await s.acquire(undefined, "x"), await s.acquire(undefined, "x"), await s.acquire(undefined, "y")];
    const order: string[] = [];
    for (const k of ["a", "a", "a", "b", "b"])
      void s.acquire(undefined, k).then((r) => (order.push(k), holders.push(r)));
    await settle();
    expect(order).toEqual([]);
    // Release the oldest holder, one at a time: "a" asked three times first, yet "b" gets every other turn.
    while (order.length < 5) {
      holders.shift()!();
      await settle();
    }
    expect(order).toEqual(["a", "b", "a", "b", "a"]);
  });
});

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

import { describe, expect, it } from "vitest";
import { DeferredWrite } from "./deferred-write.js";

describe("DeferredWrite", () => {
  it("a reconcile that settles before the delay writes nothing", async () => {
    const writes: string[] = [];
    const w = new DeferredWrite(60_000);
    w.schedule(
      async () => void writes.push("progress"),
      () => {},
    );
    await w.settle();
    expect(writes).toEqual([]);
  });

  it("a slow reconcile's write happens, and settle waits for it to finish", async () => {
    const writes: string[] = [];
    const w = new DeferredWrite(0);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    w.schedule(
      async () => {
        writes.push("started");
        await gate;
        writes.push("done");
      },
      () => {},
    );
    while (!writes.length) await new Promise((r) => setImmediate(r));
    const settled = w.settle().then(() => writes.push("settled"));
    release();
    await settled;
    expect(writes).toEqual(["started", "done", "settled"]);
  });

  it("a failed write is handed to onError, and settle still resolves", async () => {
    const errors: unknown[] = [];
    const w = new DeferredWrite(0);
    w.schedule(
      () => Promise.reject(new Error("conflict")),
      (e) => errors.push(e),
    );
    while (!errors.length) await new Promise((r) => setImmediate(r));
    await w.settle();
    expect(String(errors[0])).toContain("conflict");
  });
});

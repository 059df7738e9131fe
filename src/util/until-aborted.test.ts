import { describe, expect, it } from "vitest";
import { untilAborted } from "./until-aborted.js";

describe("untilAborted", () => {
  it("lets the caller go when the signal aborts, and hands what comes later to onLate", async () => {
    const ac = new AbortController();
    let finish!: (v: string) => void;
    const work = new Promise<string>((r) => (finish = r));
    const late: string[] = [];
    const waiting = untilAborted(work, ac.signal, (v) => late.push(v));
    ac.abort(new Error("stopping"));
    await expect(waiting).rejects.toThrow("stopping");
    finish("answer");
    await work;
    await Promise.resolve();
    expect(late).toEqual(["answer"]);
  });

  it("passes the work's own result and failure through while not aborted", async () => {
    const ac = new AbortController();
    await expect(untilAborted(Promise.resolve(1), ac.signal)).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error("refused")), ac.signal)).rejects.toThrow("refused");
  });

  it("refuses to start on a signal already aborted", async () => {
    const ac = new AbortController();
    ac.abort(new Error("stopped before"));
    await expect(untilAborted(new Promise(() => {}), ac.signal)).rejects.toThrow("stopped before");
  });
});

// The event stream's cap and backpressure, with stand-in responses whose socket buffer is full or not.
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Change } from "../fleet/status/fleet-cache.js";
import { ChangeStream } from "./change-stream.js";

class FakeResponse extends EventEmitter {
  writableNeedDrain = false;
  written: string[] = [];
  destroyed = false;
  writeHead() {
    return this;
  }
  write(text: string) {
    this.written.push(text);
    return !this.writableNeedDrain;
  }
  end() {}
  destroy() {
    this.destroyed = true;
  }
  changes() {
    return this.written.filter((t) => t.startsWith("event: change"));
  }
}

let emit: (c: Change) => void;
const source = { onChange: (fn: (c: Change) => void) => ((emit = fn), () => {}) };
const change = (kind: string) => emit({ kind } as unknown as Change);
const open = (s: ChangeStream) => {
  const res = new FakeResponse();
  return { res, opened: s.open(res as unknown as ServerResponse) };
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the dashboard's event stream", () => {
  it("opens at most its cap of streams; a closed one frees its place", () => {
    const s = new ChangeStream(source, 2);
    const a = open(s);
    expect([a.opened, open(s).opened, open(s).opened]).toEqual([true, true, false]);
    a.res.emit("close");
    expect(open(s).opened).toBe(true);
    s.close();
  });

  it("does not write to a client whose socket is full: what it missed is one message once it drains", () => {
    let now = 0;
    const s = new ChangeStream(source, 4, () => now);
    const fast = open(s).res;
    const slow = open(s).res;
    slow.writableNeedDrain = true;
    for (const kind of ["Kustomization", "HelmRelease", "Kustomization"]) {
      change(kind);
      vi.advanceTimersByTime(300);
    }
    change("Cluster");
    vi.advanceTimersByTime(300);
    expect(fast.changes()).toHaveLength(4);
    expect(slow.changes()).toHaveLength(0);
    slow.writableNeedDrain = false;
    slow.emit("drain");
    expect(slow.changes()).toEqual([
      `event: change\ndata: ${JSON.stringify({ kinds: ["Cluster", "HelmRelease", "Kustomization"] })}\n\n`,
    ]);
    now = 1;
    s.close();
  });

  it("closes a client stuck with a full socket for over a minute", () => {
    let now = 0;
    const s = new ChangeStream(source, 4, () => now);
    const stuck = open(s).res;
    stuck.writableNeedDrain = true;
    change("Kustomization");
    vi.advanceTimersByTime(300);
    expect(stuck.destroyed).toBe(false);
    now = 61_000;
    change("Kustomization");
    vi.advanceTimersByTime(300);
    expect(stuck.destroyed).toBe(true);
    expect(s.size).toBe(0);
    s.close();
  });
});

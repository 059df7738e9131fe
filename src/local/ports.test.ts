import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimPort, ephemeralLow, freePort, freePorts } from "./ports.js";

const scratch = () => mkdtempSync(join(tmpdir(), "flotilla-ports-test-"));

describe("local ports", () => {
  it("reads the low end of the kernel's ephemeral range, and nothing from a file that is not there", () => {
    const dir = scratch();
    writeFileSync(join(dir, "range"), "32768\t60999\n");
    expect(ephemeralLow(join(dir, "range"))).toBe(32768);
    expect(ephemeralLow(join(dir, "missing"))).toBeUndefined();
  });

  it("hands out ports below the ephemeral range, so an outgoing connection cannot take one before its bind", async () => {
    const low = ephemeralLow();
    const ports = await freePorts(20);
    expect(new Set(ports).size).toBe(20);
    if (low !== undefined) for (const p of ports) expect(p).toBeLessThan(low);
  });

  it("hands out a port another process can bind", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((ok, fail) => server.once("error", fail).listen(port, "127.0.0.1", ok));
    await new Promise((ok) => server.close(ok));
  });

  it("does not hand a port claimed by another process out again until its claim is two minutes old", () => {
    const dir = scratch();
    const now = Date.now();
    expect(claimPort(20001, dir, now)).toBe(true);
    expect(claimPort(20001, dir, now + 1000)).toBe(false);
    expect(claimPort(20001, dir, now + 119_000)).toBe(false);
    const old = new Date(now - 121_000);
    utimesSync(join(dir, "20001"), old, old);
    expect(claimPort(20001, dir, now)).toBe(true);
    expect(claimPort(20001, dir, now + 1000)).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { killGroup, spawnInGroup } from "./process-group.js";

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

async function until(ok: () => boolean, ms = 5000) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (ok()) return;
  throw new Error("condition not met");
}

describe("process groups", () => {
  it("kills what the child started, not only the child", async () => {
    // A shell that starts a grandchild (as git starts git-remote-http) and prints its pid.
    const child = spawnInGroup("sh", ["-c", "sleep 300 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"] });
    const grandchild = await new Promise<number>((ok) => child.stdout!.once("data", (d: Buffer) => ok(Number(d))));
    expect(alive(grandchild)).toBe(true);
    const closed = new Promise((ok) => child.once("close", ok));
    killGroup(child, "SIGKILL");
    await closed;
    await until(() => !alive(grandchild));
  });

  it("takes a group that is already gone quietly", async () => {
    const child = spawnInGroup("true", [], { stdio: "ignore" });
    await new Promise((ok) => child.once("close", ok));
    expect(() => killGroup(child)).not.toThrow();
  });
});

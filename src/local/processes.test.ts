import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isRunning } from "./processes.js";

describe("telling our fleet processes from others", () => {
  it("recognises a process only by its command and its arguments, since pids are reused and every fleet runs the same binary", async () => {
    const child = spawn("/bin/sleep", ["30"], { stdio: "ignore" });
    await new Promise((r) => child.once("spawn", r));
    try {
      expect(isRunning(child.pid!, "/bin/sleep", ["30"])).toBe(true);
      expect(isRunning(child.pid!, "/bin/sleep")).toBe(true);
      // Same binary, other arguments (another fleet's etcd that got a recorded pid): not ours.
      expect(isRunning(child.pid!, "/bin/sleep", ["31"])).toBe(false);
      expect(isRunning(child.pid!, "/bin/sleep", ["30", "--extra"])).toBe(false);
      expect(isRunning(child.pid!, "/bin/true", ["30"])).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

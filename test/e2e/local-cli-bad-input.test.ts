// `flotilla local up` on bad input: one clear line, a non-zero exit, nothing left running.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFleetState } from "../../src/local/fleet-state.js";
import { isRunning } from "../../src/local/processes.js";
import { runCli } from "../support/cli.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const scratch = makeWorkDir("flotilla-cli-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function oneErrorLine(stderr: string): string {
  const lines = stderr
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("✗"));
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

function nothingRunning(dir: string): void {
  const state = readFleetState(dir);
  if (!state) return;
  const all = [...state.planes.flatMap((p) => p.processes), ...(state.etcd ? [state.etcd.process] : [])];
  expect(all.filter((p) => isRunning(p.pid, p.command))).toEqual([]);
}

describe("flotilla local up with bad input", () => {
  it.each([["-1"], ["abc"], ["1.5"], ["99999"]])("refuses --tenants %s with one line and exit 1", async (value) => {
    const dir = join(scratch, `tenants-${value}`);
    const result = await runCli(["local", "up", `--tenants=${value}`, "--dir", dir]);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toContain(
      `--tenants must be a whole number from 0 to 32 (0 starts the management plane alone), got "${value}"`,
    );
    expect(existsSync(join(dir, "state.json"))).toBe(false);
  });

  it("refuses an unwritable --dir and names it", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "not a directory");
    const result = await runCli(["local", "up", "--tenants", "0", "--dir", join(file, "fleet")]);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toMatch(
      /fleet directory .*a-file\/fleet is not writable \(ENOTDIR\); pass a writable --dir/,
    );
  });

  it("refuses a port already in use and names the flag", async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      const dir = join(scratch, "port-taken");
      const result = await runCli(["local", "up", "--tenants", "0", "--dir", dir, "--api-port", String(port)]);
      expect(result.code).toBe(1);
      expect(oneErrorLine(result.stderr)).toContain(
        `port ${port} on 127.0.0.1 is already in use by another process; choose a free one with --api-port`,
      );
      nothingRunning(dir);
    } finally {
      server.close();
    }
  });

  it("names Go as the missing prerequisite when the tools must be built without it", async () => {
    const tools = join(scratch, "empty-tools");
    const env = { ...process.env, PATH: "/usr/bin:/bin", FLOTILLA_TOOLS_DIR: tools };
    const result = await runCli(["local", "up", "--tenants", "0", "--dir", join(scratch, "no-go")], { env });
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toContain("the Go toolchain is missing: 'go' is not on PATH");
    // The same line from the build script itself (`npm run tools`).
    const build = spawnSync("bash", ["tools/build.sh"], { env, encoding: "utf8" });
    expect(build.status).toBe(1);
    expect(build.stderr.trim()).toMatch(
      /^flotilla tools: error: the Go toolchain is missing: 'go' is not on PATH\. Install Go 1\.26/,
    );
  });

  it("reports a plane that fails to start with its log, and stops everything it started", async () => {
    const dir = join(scratch, "plane-fails");
    const result = await runCli(["local", "up", "--tenants", "1", "--dir", dir, "--apiserver-arg=--no-such-flag"]);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toMatch(
      /^✗ (management|tenant1): kube-apiserver failed to start: exited: .*unknown flag: --no-such-flag \(log: .*kube-apiserver\.log\)$/,
    );
    const state = readFleetState(dir)!;
    expect(state.etcd).toBeDefined(); // etcd had started ...
    nothingRunning(dir); // ... and was stopped again
  });
});

describe("flotilla local status and down without a fleet", () => {
  it.each([["status"], ["down"]])("local %s on an empty directory says there is no fleet", async (verb) => {
    const result = await runCli(["local", verb, "--dir", join(scratch, "nothing-here")]);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result.stderr)).toContain("no local fleet in");
  });
});

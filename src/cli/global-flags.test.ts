// Flux's global flags before the verb, and the runner's exit codes, on a miniature program built the
// way main.ts builds flotilla's (root flags, positional options, cluster flags on the verb).
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addClusterFlags, type ClusterFlags } from "./cluster-flags.js";
import { ExitError, UsageError } from "./errors.js";
import { addGlobalFlags } from "./global-flags.js";
import { failsWith, runProgram } from "./runner.js";

function program(action: (f: ClusterFlags) => void | Promise<void>) {
  const root = new Command("flotilla").enablePositionalOptions().exitOverride();
  addGlobalFlags(root);
  const get = new Command("get").exitOverride();
  get.addCommand(addClusterFlags(new Command("ks").exitOverride().action((f: ClusterFlags) => action(f))));
  root.addCommand(get);
  root.addCommand(
    failsWith(
      new Command("plan").exitOverride().action(() => action({} as ClusterFlags)),
      2,
    ),
  );
  root.addCommand(new Command("local").exitOverride().action(() => {}));
  return root;
}

const run = async (args: string[], action: (f: ClusterFlags) => void | Promise<void> = () => {}, verbose = false) =>
  runProgram(program(action), ["node", "flotilla", ...args], verbose);

describe("Flux's global flags", () => {
  const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
  const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  afterEach(() => {
    stderr.mockClear();
    write.mockClear();
  });
  const printed = () => write.mock.calls.map((c) => String(c[0])).join("");

  it("reach the verb when given before it", async () => {
    let seen: ClusterFlags | undefined;
    const code = await run(
      ["--kubeconfig", "k.yaml", "-n", "apps", "--context", "c", "--timeout", "1m", "get", "ks"],
      (f) => {
        seen = f;
      },
    );
    expect(code).toBe(0);
    expect(seen).toMatchObject({ kubeconfig: "k.yaml", namespace: "apps", context: "c", timeout: "1m" });
  });

  it("still work after the verb, and win over the same flag before it", async () => {
    let seen: ClusterFlags | undefined;
    await run(["-n", "before", "get", "ks", "-n", "after", "--kubeconfig", "k.yaml"], (f) => {
      seen = f;
    });
    expect(seen).toMatchObject({ namespace: "after", kubeconfig: "k.yaml", timeout: "5m0s" });
  });

  it("leave the verb's defaults when not given", async () => {
    let seen: ClusterFlags | undefined;
    await run(["get", "ks"], (f) => {
      seen = f;
    });
    expect(seen).toMatchObject({ namespace: process.env.FLUX_SYSTEM_NAMESPACE || "flux-system", timeout: "5m0s" });
    expect(seen?.kubeconfig).toBeUndefined();
  });

  it("are refused in one line by a verb that takes none", async () => {
    expect(await run(["--timeout", "1m", "local"])).toBe(1);
    expect(printed()).toContain("--timeout is not taken by 'flotilla local': leave it out");
  });
});

describe("the runner's exit codes", () => {
  const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const stack = vi.spyOn(console, "error").mockImplementation(() => {});
  afterEach(() => {
    write.mockClear();
    stack.mockClear();
  });
  const printed = () => write.mock.calls.map((c) => String(c[0])).join("");

  it("a flotilla error is one line and exit 1, or the verb's failure code", async () => {
    expect(await run(["get", "ks"], () => Promise.reject(new UsageError("bad flag")))).toBe(1);
    expect(await run(["plan"], () => Promise.reject(new UsageError("bad source")))).toBe(2);
    expect(printed()).toContain("bad flag");
    expect(printed()).toContain("bad source");
    expect(printed()).not.toContain("unexpected error");
  });

  it("ExitError ends with its code, quietly without a message", async () => {
    expect(await run(["plan"], () => Promise.reject(new ExitError(1)))).toBe(1);
    expect(printed()).toBe("");
    expect(await run(["get", "ks"], () => Promise.reject(new ExitError(3, "three")))).toBe(3);
    expect(printed()).toContain("three");
  });

  it("a bug says 'unexpected error', the stack only under --verbose, with the verb's failure code", async () => {
    expect(await run(["plan"], () => Promise.reject(new TypeError("x is undefined")))).toBe(2);
    expect(printed()).toContain("unexpected error: x is undefined");
    expect(stack).not.toHaveBeenCalled();
    expect(await run(["get", "ks"], () => Promise.reject(new TypeError("y")), true)).toBe(1);
    expect(stack).toHaveBeenCalledOnce();
  });
});

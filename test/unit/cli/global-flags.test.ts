// Flux's global flags on flotilla's own program: written before the verb, --kubeconfig and --context
// reach every verb that talks to a cluster (the flux habit `flotilla --kubeconfig F -n NS get ks`), and
// the verbs that take them after the verb keep doing so.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli/main.js";

function leaves(c: Command, path: string[] = []): [string, Command][] {
  const subs = c.commands.filter((s) => !(s as unknown as { _hidden?: boolean })._hidden);
  if (!subs.length) return [[path.join(" "), c]];
  return subs.flatMap((s) => leaves(s, [...path, s.name()]));
}

const takes = (c: Command, flag: string) => c.options.some((o) => o.long === flag);

describe("global flags", () => {
  const program = buildProgram();

  it("are declared on the root, as flux's persistent flags", () => {
    for (const flag of ["--kubeconfig", "--context", "--namespace", "--timeout"])
      expect(takes(program, flag)).toBe(true);
  });

  // The verbs with --kubeconfig after the verb: the same flag before the verb must reach them.
  const clusterVerbs = leaves(program).filter(([, c]) => takes(c, "--kubeconfig"));

  it("cover every verb of the Flux CLI and the fleet's", () => {
    const paths = clusterVerbs.map(([p]) => p);
    for (const p of [
      "get kustomizations",
      "reconcile kustomization",
      "suspend helmrelease",
      "plan",
      "status",
      "dashboard",
    ])
      expect(paths).toContain(p);
  });

  it.each(clusterVerbs)("flotilla --kubeconfig F [--context C] %s hands them to the verb", async (path, verb) => {
    const p = buildProgram().exitOverride();
    let seen: Record<string, unknown> | undefined;
    const target = path.split(" ").reduce<Command>((c, name) => c.commands.find((s) => s.name() === name)!, p);
    // Stop at the action: what matters is what the verb would have been given.
    target.action(function (this: Command) {
      seen = this.opts();
    });
    // install and controller take --kubeconfig only: --context before them is refused, as after them.
    const context = takes(verb, "--context") ? ["--context", "C"] : [];
    await p.parseAsync(["--kubeconfig", "F", ...context, ...path.split(" "), ...required(target)], { from: "user" });
    expect(seen).toMatchObject({ kubeconfig: "F", ...(context.length ? { context: "C" } : {}) });
  });

  it("a verb refuses a global flag it does not take, naming it", async () => {
    const p = buildProgram().exitOverride();
    await expect(p.parseAsync(["--context", "C", "install"], { from: "user" })).rejects.toThrow(
      "--context is not taken by 'flotilla install': leave it out",
    );
  });
});

/** Placeholders for a verb's required arguments and options, so that parsing reaches its action. */
const required = (c: Command) => [
  ...c.registeredArguments.filter((a) => a.required).map(() => "x"),
  ...c.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, "x"]),
];

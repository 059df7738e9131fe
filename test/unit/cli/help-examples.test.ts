// Every verb's --help ends with at least one example (the flux CLI's habit), so a user never has to
// guess the shape of a command line.
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../../src/cli/main.js";

function leaves(c: Command, path: string[] = []): [string, Command][] {
  const subs = c.commands.filter((s) => !(s as unknown as { _hidden?: boolean })._hidden);
  if (!subs.length) return [[path.join(" "), c]];
  return subs.flatMap((s) => leaves(s, [...path, s.name()]));
}

function helpOf(c: Command): string {
  let out = "";
  c.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  c.outputHelp();
  return out;
}

describe("--help", () => {
  it.each(leaves(buildProgram()))("flotilla %s --help shows an example", (_path, c) => {
    expect(helpOf(c)).toMatch(/\nExamples?:\n {2}(flotilla|source|flux) /);
  });
});

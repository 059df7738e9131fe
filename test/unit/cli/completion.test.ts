// Shell completion from the real command tree, exercised in a real bash: the script is sourced and the
// completion function called as bash calls it (COMP_WORDS / COMP_CWORD), then COMPREPLY read back.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bashCompletion, fishCompletion, zshCompletion } from "../../../src/cli/commands/completion.js";
import { buildProgram } from "../../../src/cli/main.js";

function complete(words: string[]): string[] {
  const script = `${bashCompletion(buildProgram())}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _flotilla; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync("bash", ["-c", script], { encoding: "utf8" });
  if (r.error) throw new Error(`bash is needed for this test: ${r.error.message}`);
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter(Boolean);
}

describe("flotilla completion", () => {
  it("completes verbs, sub-verbs and aliases at every depth", () => {
    expect(complete(["flotilla", "boo"])).toEqual(["bootstrap"]);
    expect(complete(["flotilla", "get", "so"]).sort()).toEqual(["source", "sources"]);
    expect(complete(["flotilla", "create", "source", "h"])).toEqual(["helm"]);
    expect(complete(["flotilla", "reconcile", "k"]).sort()).toContain("ks");
  });

  it("completes the flags of the verb typed so far, after its arguments too", () => {
    expect(complete(["flotilla", "create", "source", "git", "podinfo", "--br"])).toEqual(["--branch"]);
    expect(complete(["flotilla", "diff", "ks", "app", "--pa"])).toEqual(["--path"]);
    expect(complete(["flotilla", "get", "ks", "--all-n"])).toEqual(["--all-namespaces"]);
  });

  it("zsh loads the same function through bashcompinit; fish gets one line per verb path", () => {
    const zsh = zshCompletion(buildProgram());
    expect(zsh.startsWith("#compdef flotilla\n")).toBe(true);
    expect(zsh).toContain("autoload -U +X bashcompinit && bashcompinit\n");
    expect(zsh).toContain("complete -F _flotilla flotilla");
    const fish = fishCompletion(buildProgram());
    expect(fish).toContain(
      `complete -c flotilla -f -n "test (__flotilla_path) = 'flotilla create source'" -a 'git helm chart oci'`,
    );
    expect(fish).toContain(`complete -c flotilla -n "test (__flotilla_path) = 'flotilla create source git'" -l branch`);
  });
});

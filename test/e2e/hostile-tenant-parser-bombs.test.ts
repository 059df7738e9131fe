// A tenant trying to hang or exhaust the controller that builds its repository: a YAML alias bomb
// ("billion laughs", 9^9 strings once expanded) in a manifest and in kustomization.yaml, a document
// nested 10 000 levels deep, a kustomization that lists itself and two that list each other. Each
// fails fast with a message saying which limit, the controller's peak memory (VmHWM) stays near
// where it was, the process lives on, and another tenant's Kustomization still reaches new revisions.
// `flotilla kustomize build` fails the same way on the same directories.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { type HostileFleet, startHostileFleet } from "../support/hostile-tenants.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let f: HostileFleet;
let peakBefore: number;

/** "Billion laughs": nine levels of nine aliases. */
function aliasBomb(): string {
  const names = "abcdefghi";
  let text = `a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n`;
  for (let i = 1; i < names.length; i++)
    text += `${names[i]}: &${names[i]} [${Array(9)
      .fill(`*${names[i - 1]}`)
      .join(", ")}]\n`;
  return text;
}

const configMapHead = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

/** Each bomb: its files, and the phrase its failure must carry. */
const bombs: Record<string, { files: Record<string, string>; phrase: string }> = {
  "alias-bomb-manifest": {
    // Listed by a kustomization: a plain directory's unreadable files are skipped, as Flux's generator does.
    files: { "kustomization.yaml": "resources:\n- lol.yaml\n", "lol.yaml": configMapHead("lol") + aliasBomb() },
    phrase: "lol.yaml: document 1: invalid YAML at line 5, column 8: document contains excessive aliasing",
  },
  // No kustomization file: the generated one reads every YAML file, and one it cannot read fails the build.
  "alias-bomb-plain-directory": {
    files: { "lol.yaml": configMapHead("lol") + aliasBomb() },
    phrase:
      "failed to decode Kubernetes YAML from lol.yaml: document 1: invalid YAML at line 5, column 8: document contains excessive aliasing",
  },
  "alias-bomb-kustomization": {
    files: { "kustomization.yaml": `resources: []\n${aliasBomb()}` },
    phrase: "document contains excessive aliasing",
  },
  "deep-nesting": {
    files: {
      "kustomization.yaml": "resources:\n- deep.yaml\n",
      "deep.yaml": `${configMapHead("deep")}data:\n  x: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`,
    },
    phrase:
      "deep.yaml: document 1: invalid YAML at line 6, column 260: document nests collections deeper than 256 levels",
  },
  "self-reference": {
    files: { "kustomization.yaml": "resources:\n- .\n" },
    phrase: 'resources entry "." leads back to a kustomization already being built: cycle detected',
  },
  "cycle-a": {
    files: {
      "kustomization.yaml": "resources:\n- ../cycle-b\n",
      "../cycle-b/kustomization.yaml": "resources:\n- ../cycle-a\n",
    },
    phrase: 'resources entry "../cycle-a" leads back to a kustomization already being built: cycle detected',
  },
};

/** The controller's resident memory now and at its peak, in MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]) / 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

beforeAll(async () => {
  f = await startHostileFleet("bombs");
  const files: Record<string, string> = {};
  for (const [dir, bomb] of Object.entries(bombs))
    for (const [file, text] of Object.entries(bomb.files)) files[join(dir, file)] = text;
  await f.attacker.commit(files);
  peakBefore = memory(f.controller.child.pid!).peak;
}, 240_000);

afterAll(async () => {
  await f?.stop();
});

describe("a tenant's parser bombs", () => {
  it.each(Object.keys(bombs))("%s: the build fails fast, saying which limit", async (name) => {
    const started = Date.now();
    await f.attacker.createKs(name, { path: `./${name}`, targetNamespace: f.attacker.ns });
    const failed = await f.attacker.waitNotReady(name, "BuildFailed", 60_000);
    expect(failed.message).toContain(bombs[name]!.phrase);
    // Generous for a loaded 2-core machine: a hang or an expansion would take minutes, not seconds.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(f.controller.child.exitCode).toBeNull();
  });

  it("the controller's memory stays bounded, and it keeps reconciling the other tenant", async () => {
    const { rss, peak } = memory(f.controller.child.pid!);
    // 9^9 expanded strings would be gigabytes; the bombs may cost a few MiB of parsing.
    expect(peak - peakBefore).toBeLessThan(200);
    expect(rss).toBeLessThan(1024);
    await f.bystanderKeepsReconciling();
    expect(f.controller.child.exitCode).toBeNull();
  });

  it("`flotilla kustomize build` refuses the same directories with the same messages", async () => {
    const root = makeWorkDir("hostile-bombs-");
    for (const [dir, bomb] of Object.entries(bombs)) {
      for (const [file, text] of Object.entries(bomb.files)) {
        mkdirSync(dirname(join(root, dir, file)), { recursive: true });
        writeFileSync(join(root, dir, file), text);
      }
    }
    for (const [dir, bomb] of Object.entries(bombs)) {
      const started = Date.now();
      const generate = "kustomization.yaml" in bomb.files ? [] : ["--generate-kustomization"];
      const out = await runCli(["kustomize", "build", ...generate, join(root, dir)], { timeoutMs: 60_000 });
      expect(out.code, out.stderr).toBe(1);
      expect(out.stderr).toContain(bomb.phrase);
      expect(Date.now() - started).toBeLessThan(60_000);
    }
  });
});

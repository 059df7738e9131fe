// The fast reader must agree with the full parser — values and style notes — wherever it accepts a
// text, and must decline what it does not handle. Checked over every YAML file of the kustomize
// corpus plus edge cases.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Json } from "./emit.js";
import { parseYamlDocumentsFully } from "./parse.js";
import { notesOf } from "./scalar-style.js";
import { parseSimpleYaml } from "./simple-yaml.js";

/** Value and notes, as one comparable structure. */
function withNotes(v: Json): unknown {
  if (v === null || typeof v !== "object") return v;
  const notes = notesOf(v);
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  return {
    kind: Array.isArray(v) ? "seq" : "map",
    items: entries.map(([k, x]) => [k, withNotes(x as Json), notes?.get(k) ?? null]),
  };
}

const agree = (text: string) => {
  const fast = parseSimpleYaml(text);
  if (!fast) return false;
  const full = parseYamlDocumentsFully(text, "t");
  expect(fast.map((d) => [d.index, withNotes(d.value)])).toEqual(full.map((d) => [d.index, withNotes(d.value)]));
  return true;
};

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = join(dir, f);
    if (statSync(full).isDirectory()) return yamlFiles(full);
    return /\.(ya?ml)$|^Kustomization$/.test(f) ? [full] : [];
  });
}

describe("fast YAML reader", () => {
  it("gives the full parser's values and notes for every corpus file it accepts, and accepts most", () => {
    const files = yamlFiles("test/fixtures/kustomize");
    let accepted = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      let full: unknown;
      try {
        full = parseYamlDocumentsFully(text, file);
      } catch {
        // Invalid YAML: the fast reader must not accept it either.
        expect(parseSimpleYaml(text), file).toBeUndefined();
        continue;
      }
      if (full && agree(text)) accepted++;
    }
    expect(accepted / files.length).toBeGreaterThan(0.6);
  }, 60_000); // reads the whole corpus twice: seconds on a loaded machine, not a timing target

  it.each([
    "a: 1\nb: -1\nc: 0x1F\nd: 1.0\ne: yes\nf: true\ng: null\nh: ~\ni: 2026-01-01\nj: 1e3\nk: 0123\nl:\n",
    "list:\n- a\n- 'b'\n- \"c d\"\n-\n  x: 1\n- name: n\n  image: i\n  ports:\n  - containerPort: 80\nafter: 2\n",
    "# head\n---\na: 1\n---\n---\nb: 2\n---\n",
    "a: 1\n---\n# only a comment\n---\nc: [] \nd: {}\n",
    "  indented: top\n  more: 2\n",
    "k:\n  - a\n  -   b\nurl: http://x:8080/y\nhash: a#b\n",
    "patch: |-\n  - op: add\n    path: /x\n\n  # not a comment\n    value: 1\nnext: |\n  a\n   b\n\n\nlast: 1\n",
    "- |\n  in a list\n- name: s\n  script: |\n    echo hi  \n    exit 0\n",
    "data:\n  file.txt: |\n    line\n\n    after blank\n",
    '- op: add\n  path: /spec/args\n  value: ["--cluster=c-1", plain, \'single\', 1, true, null, 0x1F, "a, b"]\n',
    "empty: [ ]\nports: [80,443]\n",
  ])("agrees on %j", (text) => {
    expect(agree(text)).toBe(true);
  });

  it.each([
    "a: |+\n  keep\n\n",
    "a: >\n  folded\n",
    "a: |\n  x\n      \n  y\n",
    "a: 'it''s'\n",
    'a: "esc\\n"\n',
    "a: b # comment\n",
    "a: &x 1\nb: *x\n",
    "a: [1, [2]]\n",
    "a: [1, 2,]\n",
    "a: [a: b]\n",
    "a: [{x: 1}]\n",
    "a: 1\na: 2\n",
    "a: multi\n  line\n",
    "a:\tb\n",
    "true: x\n",
    "a: .inf\n",
    "- - nested\n",
    "a: !!str 1\n",
    "--- !tag\na: 1\n",
  ])("declines %j", (text) => {
    expect(parseSimpleYaml(text)).toBeUndefined();
  });
});

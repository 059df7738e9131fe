// The layer table in docs/architecture.md is the rule; ESLint (eslint.config.js) enforces it. This
// checks they agree by asking ESLint itself: for every layer, an import of every other layer.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./source-graph.js";

/** layer → the layers it may import ("everything" for the top). */
function documentedLayers(): Map<string, string[] | "everything"> {
  const doc = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
  const layers = new Map<string, string[] | "everything">();
  for (const line of doc.split("\n")) {
    const row = /^\|\s*`([a-z-]+)`\s*\|([^|]*)\|/.exec(line);
    if (!row) continue;
    const allowed = row[2]!.trim();
    layers.set(row[1]!, allowed === "everything" ? "everything" : allowed === "nothing" ? [] : allowed.split(/,\s*/));
  }
  return layers;
}

const layers = documentedLayers();
const names = [...layers.keys()];

describe("the layer table in docs/architecture.md", () => {
  it("has a row for every folder under src/", () => {
    const folders = readdirSync(join(repoRoot, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !layers.has(f))).toEqual([]);
    for (const [layer, allowed] of layers)
      if (allowed !== "everything")
        expect(
          allowed.filter((a) => !layers.has(a)),
          layer,
        ).toEqual([]);
  });

  it("is what ESLint enforces, for files at any depth of a layer's folder", async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    for (const [layer, allowed] of layers) {
      for (const depth of [1, 2]) {
        const up = "../".repeat(depth);
        // Line i + 1 imports names[i]; at depth 2, the same folder name one level up is the
        // layer's own subfolder (like src/api/kustomize/), which is always allowed.
        const imports = names.map((other) => `import "${up}${other}/probe.js";`);
        const own = depth === 2 ? names.map((other) => `import "../${other}/probe.js";`) : [];
        const filePath = join(repoRoot, "src", layer, ...Array(depth - 1).fill("sub"), "probe.ts");
        const [result] = await eslint.lintText([...imports, ...own].join("\n") + "\n", { filePath });
        const refused = result!.messages
          .filter((m) => m.ruleId === "no-restricted-imports")
          .map((m) => ({ layer: names[m.line - 1], message: m.message }));
        const expected = names.filter((o) => o !== layer && allowed !== "everything" && !allowed.includes(o));
        expect(
          refused.map((r) => r.layer),
          `${layer} at depth ${depth}`,
        ).toEqual(expected);
        for (const r of refused)
          expect(r.message).toContain(`${layer} may not import ${r.layer}: see docs/architecture.md (layers)`);
      }
    }
  }, 60_000);
});

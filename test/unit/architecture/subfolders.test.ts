// Below the layers: the sub-folder table in docs/architecture.md says which sibling folders of `controllers`
// and `fleet` each may import (a controller folder never another kind's; the fleet's one way only).
// ESLint (eslint.config.js) enforces it; this checks the table is whole and acyclic, that the code obeys
// it, and that ESLint refuses exactly what the table forbids, at any depth of a sub-folder.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { importGraph, repoRoot } from "./source-graph.js";

/** "layer/folder" → the sibling folders it may import. */
function documentedSubfolders(): Map<string, string[]> {
  const doc = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
  const table = new Map<string, string[]>();
  for (const line of doc.split("\n")) {
    const row = /^\|\s*`([a-z-]+\/[a-z-]+)`\s*\|([^|]*)\|/.exec(line);
    if (!row) continue;
    const allowed = row[2]!.trim();
    table.set(row[1]!, allowed === "nothing" ? [] : allowed.split(/,\s*/));
  }
  return table;
}

const table = documentedSubfolders();
const layersWithTable = ["controllers", "fleet"];
const siblingsOf = (layer: string) =>
  [...table.keys()].filter((k) => k.startsWith(`${layer}/`)).map((k) => k.slice(layer.length + 1));

describe("the sub-folder table in docs/architecture.md", () => {
  it("has a row for every sub-folder of controllers and fleet, naming only siblings", () => {
    for (const layer of layersWithTable) {
      const folders = readdirSync(join(repoRoot, "src", layer), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
      expect([...siblingsOf(layer)].sort(), layer).toEqual(folders);
      for (const folder of folders)
        expect(
          table.get(`${layer}/${folder}`)!.filter((a) => !folders.includes(a) || a === folder),
          `${layer}/${folder}`,
        ).toEqual([]);
    }
  });

  it("lets sibling folders import each other one way only", () => {
    for (const layer of layersWithTable) {
      // Peel off folders that import no remaining folder; what is left imports in a circle.
      let left = siblingsOf(layer);
      for (let peeled = true; peeled;) {
        const next = left.filter((f) => table.get(`${layer}/${f}`)!.some((a) => left.includes(a)));
        peeled = next.length < left.length;
        left = next;
      }
      expect(left, layer).toEqual([]);
    }
  });

  it("is what the code does: no folder imports a sibling its row does not name", () => {
    const refused: string[] = [];
    for (const [file, targets] of importGraph()) {
      const [, layer, folder] = file.split("/");
      if (!layersWithTable.includes(layer!) || !table.has(`${layer}/${folder}`) || file.split("/").length < 4) continue;
      for (const target of targets) {
        const [, targetLayer, targetFolder] = target.split("/");
        if (targetLayer !== layer || target.split("/").length < 4 || targetFolder === folder) continue;
        if (!table.get(`${layer}/${folder}`)!.includes(targetFolder!)) refused.push(`${file} → ${target}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("is what ESLint enforces, for files at any depth of a sub-folder", async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    for (const layer of layersWithTable) {
      const folders = siblingsOf(layer);
      for (const folder of folders) {
        for (const depth of [1, 2]) {
          // Line i + 1 imports folders[i] from a file `depth` folders below src/<layer>/<folder>/.
          const up = "../".repeat(depth);
          const source = folders.map((other) => `import "${up}${other}/probe.js";`).join("\n") + "\n";
          const filePath = join(repoRoot, "src", layer, folder, ...Array(depth - 1).fill("sub"), "probe.ts");
          const [result] = await eslint.lintText(source, { filePath });
          const refused = result!.messages
            .filter((m) => m.ruleId === "no-restricted-imports")
            .map((m) => ({ folder: folders[m.line - 1], message: m.message }));
          const allowed = table.get(`${layer}/${folder}`)!;
          expect(
            refused.map((r) => r.folder),
            `${layer}/${folder} at depth ${depth}`,
          ).toEqual(folders.filter((o) => o !== folder && !allowed.includes(o)));
          for (const r of refused)
            expect(r.message).toContain(
              `${layer}/${folder} may not import ${layer}/${r.folder}: see docs/architecture.md (sub-folders)`,
            );
        }
      }
    }
  }, 60_000);
});

// Layers applied as a container runtime applies them: whiteout files delete what lower layers put there,
// an opaque directory hides its lower contents, a file replaces a directory, and no whiteout reaches the result.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyLayer } from "../support/oci-unpack.js";

const scratch = () => mkdtempSync(join(tmpdir(), "oci-unpack-"));

/** A gzipped layer tar holding `files` (path → content; a path ending in "/" is a directory). */
function layer(files: Record<string, string>, members?: string[]): string {
  const dir = scratch();
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) mkdirSync(join(dir, path), { recursive: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  }
  const out = join(scratch(), "layer.tar.gz");
  execFileSync("tar", [
    "-czf",
    out,
    "-C",
    dir,
    "--no-recursion",
    ...(members ?? []),
    ...(members ? [] : ["--recursion", ...readdirSync(dir)]),
  ]);
  return out;
}

describe("applying image layers", () => {
  it("a .wh.<name> file deletes <name> of a lower layer, file or directory, and is not itself unpacked", () => {
    const root = scratch();
    applyLayer(layer({ "etc/keep": "k", "etc/gone": "g", "var/cache/old/a": "a" }), root);
    applyLayer(layer({ "etc/.wh.gone": "", "var/cache/.wh.old": "", "etc/new": "n" }), root);
    expect(readdirSync(join(root, "etc")).sort()).toEqual(["keep", "new"]);
    expect(readdirSync(join(root, "var/cache"))).toEqual([]);
  });

  it("an opaque directory hides everything lower layers put in it but keeps its own layer's files", () => {
    const root = scratch();
    applyLayer(layer({ "app/old.js": "1", "app/lib/dep.js": "2", "other/x": "x" }), root);
    applyLayer(layer({ "app/.wh..wh..opq": "", "app/new.js": "3" }), root);
    expect(readdirSync(join(root, "app"))).toEqual(["new.js"]);
    expect(readFileSync(join(root, "other/x"), "utf8")).toBe("x");
  });

  it("a file in an upper layer replaces a directory of a lower one", () => {
    const root = scratch();
    applyLayer(layer({ "data/sub/f": "f" }), root);
    applyLayer(layer({ data: "now a file" }), root);
    expect(readFileSync(join(root, "data"), "utf8")).toBe("now a file");
  });

  // The layer holds the whiteout alone (no entry for etc/link/ itself, which would replace the symlink).
  it("a whiteout through a symlink of a lower layer is refused, not followed out of the root", () => {
    const root = scratch();
    const outside = scratch();
    writeFileSync(join(outside, "victim"), "v");
    mkdirSync(join(root, "etc"));
    symlinkSync(outside, join(root, "etc", "link"));
    expect(() => applyLayer(layer({ "etc/link/.wh.victim": "" }, ["etc/link/.wh.victim"]), root)).toThrow(
      /passes through the symlink/,
    );
    expect(existsSync(join(outside, "victim"))).toBe(true);
  });
});

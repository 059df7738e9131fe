// A fresh clone: `node bin/flotilla.js` before any build says in one line what to run, and output
// closed early (`| head`) ends the command quietly.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkDir } from "../../../src/util/work-dir.js";

describe("bin/flotilla.js", () => {
  it("says to build first when dist/ is missing, exit 1, no stack trace", () => {
    const clone = makeWorkDir("flotilla-fresh-clone-");
    mkdirSync(join(clone, "bin"));
    copyFileSync("bin/flotilla.js", join(clone, "bin", "flotilla.js"));
    const r = spawnSync(process.execPath, [join(clone, "bin", "flotilla.js"), "get", "ks"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`✗ flotilla is not built yet: run \`npm install && npm run build\` in ${clone}/\n`);
  });
});

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkDir } from "../../util/work-dir.js";
import { HelmNotFoundError } from "./errors.js";
import { locateHelmEngine } from "./engine-locate.js";

describe("finding the resident helm engine", () => {
  it("takes the pinned build first, then helm-engine on PATH", () => {
    const tools = makeWorkDir("engine-tools-");
    const path = makeWorkDir("engine-path-");
    writeFileSync(join(path, "helm-engine"), "#!/bin/sh\n");
    chmodSync(join(path, "helm-engine"), 0o755);
    expect(locateHelmEngine({ FLOTILLA_TOOLS_DIR: tools, PATH: path })).toBe(join(path, "helm-engine"));
    mkdirSync(join(tools, "bin"));
    writeFileSync(join(tools, "bin", "helm-engine"), "");
    expect(locateHelmEngine({ FLOTILLA_TOOLS_DIR: tools, PATH: path })).toBe(join(tools, "bin", "helm-engine"));
  });

  it("says how to build it, or how to do without it, when it is nowhere", () => {
    const tools = makeWorkDir("engine-tools-");
    const find = () => locateHelmEngine({ FLOTILLA_TOOLS_DIR: tools, PATH: tools });
    expect(find).toThrow(HelmNotFoundError);
    expect(find).toThrow(/helm engine not found: .*npm run tools.*tools\/build\.sh helm-engine.*--helm-engine=false/);
  });
});

// kustomize's own test suite (sigs.k8s.io/kustomize/api/krusty, extracted by scripts/krusty-cases.sh),
// built by the real kustomize and by ours: every build identical, every failing build failing on both
// sides for the problem its expected-error.json names, except the few where flotilla deliberately
// refuses what kustomize silently ignores (KRUSTY_DELIBERATE, each checked to still do so).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ERROR_EXPECTATION,
  errorExpectation,
  errorMismatches,
  KRUSTY_DELIBERATE,
  kustomizeArgs,
  listKrustyCases,
  requireTool,
} from "../../scripts/parity-cases.mjs";
import { buildKustomization } from "../../src/kustomize/index.js";
import { locateHelm } from "../../src/binaries/helm/index.js";
import { locateToolchain } from "../../src/local/toolchain.js";
import { isFlotillaError } from "../../src/util/errors.js";

const DELIBERATE = KRUSTY_DELIBERATE;

const { kustomize } = locateToolchain();
const helm = locateHelm();
const cases = listKrustyCases();

async function ours(dir: string, enableHelm: boolean) {
  try {
    return {
      ok: true as const,
      out: await buildKustomization(dir, enableHelm ? { enableHelm, helmCommand: helm } : {}),
    };
  } catch (err) {
    return {
      ok: false as const,
      message: String((err as Error).message ?? err),
      isFlotillaError: isFlotillaError(err),
    };
  }
}

describe("kustomize's own test suite (api/krusty)", () => {
  it("has the extracted cases", () => expect(cases.length).toBeGreaterThanOrEqual(200));

  it(`classifies every failing build with ${ERROR_EXPECTATION}`, () => {
    const unclassified = cases.filter((c) => c.expectError && !existsSync(join(c.caseDir, ERROR_EXPECTATION)));
    expect(unclassified.map((c) => c.name)).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    requireTool("kustomize", kustomize);
    if (c.enableHelm) requireTool("helm", helm);
    const real = spawnSync(kustomize, kustomizeArgs(c, helm), { encoding: "utf8" });
    const mine = await ours(c.dir, c.enableHelm);
    if (DELIBERATE[name]) {
      expect(real.status, "real kustomize builds it").toBe(0);
      expect(mine.ok ? "flotilla builds it" : mine.message).toMatch(DELIBERATE[name]);
      return;
    }
    if (c.expectError) {
      expect(errorMismatches(errorExpectation(c), real, mine)).toEqual([]);
      return;
    }
    expect(real.status, real.stderr).toBe(0);
    expect(mine.ok ? mine.out : mine.message).toBe(real.stdout);
  });
});

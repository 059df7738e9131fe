// Every case of the kustomize corpus, built by the real kustomize (tools/) and by ours, byte for byte.
// An `error-` case must fail on both sides for the same problem: real kustomize's stderr and our
// message each hold the phrase its expected-error.json names, and ours is a FlotillaError, not a crash.
// `npm run parity` is the same comparison with diffs printed. KNOWN_DIFFERENCES lists what is not
// reproduced yet; each entry must *still* differ (so the list can only shrink), and everything
// else must be identical.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ERROR_EXPECTATION,
  errorExpectation,
  errorMismatches,
  kustomizeArgs,
  listCases,
  requireTool,
} from "../../scripts/parity-cases.mjs";
import { buildKustomization } from "../../src/kustomize/index.js";
import { locateHelm } from "../../src/binaries/helm/index.js";
import { locateToolchain } from "../../src/local/toolchain.js";
import { isFlotillaError } from "../../src/util/errors.js";

const KNOWN_DIFFERENCES: Record<string, string> = {};

const { kustomize } = locateToolchain();
const helm = locateHelm();
const cases = listCases();

async function ours(
  dir: string,
  enableHelm: boolean,
): Promise<{ ok: true; out: string } | { ok: false; message: string; isFlotillaError: boolean }> {
  try {
    return { ok: true, out: await buildKustomization(dir, enableHelm ? { enableHelm, helmCommand: helm } : {}) };
  } catch (err) {
    return { ok: false, message: String((err as Error).message ?? err), isFlotillaError: isFlotillaError(err) };
  }
}

describe("kustomize parity corpus", () => {
  it("has at least 150 cases", () => expect(cases.length).toBeGreaterThanOrEqual(150));

  it(`keeps ${ERROR_EXPECTATION} for error- cases only`, () => {
    const stray = cases.filter((c) => !c.expectError && existsSync(join(c.dir, ERROR_EXPECTATION)));
    expect(stray.map((c) => c.name)).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    requireTool("kustomize", kustomize);
    if (c.enableHelm) requireTool("helm", helm);
    const expected = c.expectError ? errorExpectation(c) : undefined;
    const real = spawnSync(kustomize, kustomizeArgs(c, helm), { encoding: "utf8" });
    const mine = await ours(c.dir, c.enableHelm);
    if (c.unsupported) {
      expect(real.status, "real kustomize builds it").toBe(0);
      expect(mine.ok).toBe(false);
      expect(!mine.ok && mine.message).toMatch(/field "[^"]+" is not supported/);
      return;
    }
    if (expected) {
      expect(errorMismatches(expected, real, mine)).toEqual([]);
      return;
    }
    expect(real.status, real.stderr).toBe(0);
    if (KNOWN_DIFFERENCES[name]) {
      expect(mine.ok && mine.out === real.stdout, `${name} now matches: remove it from KNOWN_DIFFERENCES`).toBe(false);
      return;
    }
    expect(mine.ok ? mine.out : mine.message).toBe(real.stdout);
  });
});

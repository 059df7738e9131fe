// Every case of the kustomize corpus, built by the real kustomize (tools/) and by ours, byte for byte.
// `npm run parity` is the same comparison with diffs printed. KNOWN_DIFFERENCES lists what is not
// reproduced yet; each entry must *still* differ (so the list can only shrink), and everything
// else must be identical.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { kustomizeArgs, listCases } from "../../scripts/parity-cases.mjs";
import { buildKustomization } from "../../src/kustomize/index.js";
import { locateHelm } from "../../src/binaries/helm/index.js";
import { locateToolchain } from "../../src/local/toolchain.js";

const KNOWN_DIFFERENCES: Record<string, string> = {};

const { kustomize } = locateToolchain();
const helm = locateHelm();
const cases = listCases();

async function ours(
  dir: string,
  enableHelm: boolean,
): Promise<{ ok: true; out: string } | { ok: false; error: string }> {
  try {
    return { ok: true, out: await buildKustomization(dir, enableHelm ? { enableHelm, helmCommand: helm } : {}) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

describe("kustomize parity corpus", () => {
  it("has at least 150 cases", () => expect(cases.length).toBeGreaterThanOrEqual(150));

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const real = spawnSync(kustomize, kustomizeArgs(c, helm), { encoding: "utf8" });
    const mine = await ours(c.dir, c.enableHelm);
    if (name.startsWith("unsupported-")) {
      expect(real.status, "real kustomize builds it").toBe(0);
      expect(mine.ok).toBe(false);
      expect(!mine.ok && mine.error).toMatch(/field "[^"]+" is not supported/);
      return;
    }
    if (name.startsWith("error-")) {
      expect(real.status, "real kustomize rejects it").not.toBe(0);
      expect(mine.ok, mine.ok ? "we build it" : "").toBe(false);
      return;
    }
    expect(real.status, real.stderr).toBe(0);
    if (KNOWN_DIFFERENCES[name]) {
      expect(mine.ok && mine.out === real.stdout, `${name} now matches: remove it from KNOWN_DIFFERENCES`).toBe(false);
      return;
    }
    expect(mine.ok ? mine.out : mine.error).toBe(real.stdout);
  });
});

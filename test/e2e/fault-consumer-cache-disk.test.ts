// The unpacked-artifact cache under a long run of new revisions (issue 28 item 5): every revision a
// Kustomization applies is unpacked once, and before this cache was collected each one stayed until
// the volume was full — then every tenant failed. Now each source keeps its two newest revisions.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileFleet, startHostileFleet } from "../support/hostile-tenants.js";

let fleet: HostileFleet;
beforeAll(async () => {
  fleet = await startHostileFleet("cache-disk");
}, 240_000);
afterAll(() => fleet?.stop());

function cacheUsage(root: string): { dirs: number; bytes: number } {
  const cache = join(root, ".consumer-cache");
  let bytes = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(dir, e.name));
      else bytes += statSync(join(dir, e.name)).size;
  };
  walk(cache);
  return { dirs: readdirSync(cache, { withFileTypes: true }).filter((e) => e.isDirectory()).length, bytes };
}

describe("the unpacked-artifact cache over many revisions", () => {
  it("stays flat: 15 new revisions applied one after another leave at most two unpacked per source", async () => {
    // A large file in every revision, so a cache that kept them would show it in bytes too.
    await fleet.bystander.commit({ "big/data.txt": "x".repeat(512 * 1024) });
    const sizes: number[] = [];
    for (let i = 0; i < 15; i++) {
      await fleet.bystanderKeepsReconciling(); // a new commit, applied: its revision unpacked
      sizes.push(cacheUsage(fleet.storagePath).dirs);
    }
    const { dirs, bytes } = cacheUsage(fleet.storagePath);
    // One source is consumed (the bystander's GitRepository): its current and previous revision.
    expect(dirs).toBeLessThanOrEqual(2);
    expect(bytes).toBeLessThan(3 * 512 * 1024);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
  }, 600_000);
});

import { describe, expect, it } from "vitest";
import type { Cluster } from "./cluster.js";
import { InformerSyncError } from "./errors.js";
import { Informer } from "./informer.js";

// A cluster whose lists fail: the informer's watcher backs off and never syncs.
const failing = { name: "mgmt", mapping: () => Promise.reject(new Error("refused")) } as unknown as Cluster;
const gvk = { group: "source.toolkit.fluxcd.io", version: "v1", kind: "HelmRepository" };

describe("Informer", () => {
  it("tells a start waiting for its first list that it was stopped, at once instead of at the sync timeout", async () => {
    const informer = new Informer(failing, { gvk, labelSelector: "flotilla.dev/shard=a" });
    informer.start();
    const waiting = informer.waitForSync(60_000);
    const started = Date.now();
    await informer.stop();
    const err = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InformerSyncError);
    expect((err as InformerSyncError).stopped).toBe(true);
    expect((err as Error).message).toBe(
      "informer of HelmRepository.source.toolkit.fluxcd.io (flotilla.dev/shard=a) stopped before it synced",
    );
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(informer.waitForSync()).rejects.toMatchObject({ stopped: true });
  });

  it("names its kind and the last error when it does not sync in time", async () => {
    const informer = new Informer(failing, { gvk, namespace: "apps" });
    informer.start();
    const err = await informer.waitForSync(300).catch((e: unknown) => e);
    await informer.stop();
    expect(err).toBeInstanceOf(InformerSyncError);
    expect((err as InformerSyncError).stopped).toBe(false);
    expect((err as Error).message).toBe(
      "informer of HelmRepository.source.toolkit.fluxcd.io in namespace apps did not sync within 300 ms: refused",
    );
  });

  it("forgets a waiter that timed out, so callers retrying a sync do not pile up on it", async () => {
    const informer = new Informer(failing, { gvk });
    informer.start();
    for (let i = 0; i < 3; i++) await informer.waitForSync(50).catch(() => {});
    expect((informer as unknown as { syncWaiters: unknown[] }).syncWaiters).toHaveLength(0);
    await informer.stop();
  });
});

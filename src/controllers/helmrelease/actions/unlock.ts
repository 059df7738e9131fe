// Unlock: a release left pending (pending-install, -upgrade, -rollback) by a helm that died is marked
// failed in storage, without helm, so the next decision can remediate or retry it.
import type { ReleaseStorage, StoredRelease } from "../storage/release.js";
import { releaseId } from "../release-status.js";

/** Marks `last` failed; returns the Normal event, naming the stale state it was in. */
export async function unlockRelease(
  storage: ReleaseStorage,
  last: StoredRelease,
): Promise<{ reason: string; message: string }> {
  // unlock() marks `last` failed: name the stale state it was in before.
  const stale = last.info.status;
  await storage.unlock(last);
  return { reason: "Unlocked", message: `Release ${releaseId(last)} unlocked from stale '${stale}' state` };
}

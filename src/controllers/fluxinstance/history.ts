// A FluxInstance's status.history as the operator's fluxinstance_controller.go records it (api/v1
// History.Upsert: newest first, five kept, one snapshot per (digest, Ready reason)). A reconcile that got
// as far as building the revision is keyed by the revision's digest (`v2.9.5@sha256:<d>` → `sha256:<d>`)
// with metadata {flux: v2.9.5}; one stopped before (the operator's build failure: here a lockdown not
// in effect, a Bucket sync) by the digest of the spec, without metadata.
import { createHash } from "node:crypto";
import type { Snapshot } from "../../api/meta/history.js";
import type { FluxInstance } from "../../api/operator/fluxinstance.js";
import { upsertSnapshot } from "../kit/history.js";
import { goDuration } from "../kit/operator-annotations.js";

export interface Reconciled {
  /** The Ready reason the reconcile ended with. */
  reason: string;
  /** lastAttemptedRevision when the reconcile built one. */
  revision?: string;
  startedMs: number;
  at: Date;
}

const specDigest = (fi: FluxInstance) =>
  `sha256:${createHash("sha256")
    .update(JSON.stringify(fi.spec ?? {}))
    .digest("hex")}`;

export function instanceHistory(fi: FluxInstance, r: Reconciled): Snapshot[] {
  const [version, digest] = r.revision?.split("@") ?? [];
  const durationMs = r.at.getTime() - r.startedMs;
  const entry = digest
    ? { digest, status: r.reason, at: r.at, durationMs, metadata: { flux: version! } }
    : { digest: specDigest(fi), status: r.reason, at: r.at, durationMs };
  return upsertSnapshot(fi.status?.history, entry, goDuration);
}

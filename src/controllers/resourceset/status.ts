// What a ResourceSet's status says, as the operator writes it: the digest of the applied set
// (lastAppliedRevision, the history key), the history of reconciliations (newest first, five kept),
// and its timing annotations (reconcileEvery, default 60m; reconcileTimeout, default 5m).
import { createHash } from "node:crypto";
import type { Json } from "../../kustomize/yaml/emit.js";
import { toYaml } from "../../kustomize/yaml/emit.js";
import type { KubeObject } from "../../api/meta/object.js";
import { type HistoryEntry, OPERATOR_ANNOTATIONS, type ResourceSet } from "../../api/operator/resourceset.js";
import { annotatedMs, goDuration } from "../kit/operator-annotations.js";

const MAX_HISTORY = 5;

/** sha256 of the objects as multi-document YAML (ssautil.ObjectsToYAML). */
export const setDigest = (objects: KubeObject[]): string =>
  "sha256:" +
  createHash("sha256")
    .update(objects.map((o) => toYaml(JSON.parse(JSON.stringify(o)) as Json)).join("---\n"))
    .digest("hex");

export function upsertHistory(
  history: HistoryEntry[] | undefined,
  digest: string,
  now: Date,
  tookMs: number,
  status: string,
  metadata?: Record<string, string>,
): HistoryEntry[] {
  const at = now.toISOString().replace(/\.\d+Z$/, "Z");
  const old = (history ?? []).find((h) => h.digest === digest);
  const entry: HistoryEntry = old
    ? {
        ...old,
        lastReconciled: at,
        lastReconciledDuration: goDuration(tookMs),
        lastReconciledStatus: status,
        totalReconciliations: old.totalReconciliations + 1,
        ...(metadata ? { metadata } : {}),
      }
    : {
        digest,
        firstReconciled: at,
        lastReconciled: at,
        lastReconciledDuration: goDuration(tookMs),
        lastReconciledStatus: status,
        totalReconciliations: 1,
        ...(metadata ? { metadata } : {}),
      };
  return [entry, ...(history ?? []).filter((h) => h.digest !== digest)].slice(0, MAX_HISTORY);
}

export const intervalOf = (rset: ResourceSet) => annotatedMs(rset, "reconcileEvery", 60 * 60_000);
export const timeoutOf = (rset: ResourceSet) => annotatedMs(rset, "reconcileTimeout", 5 * 60_000);
export const isForced = (o: KubeObject) =>
  o.metadata.annotations?.[OPERATOR_ANNOTATIONS.force]?.toLowerCase() === "enabled";

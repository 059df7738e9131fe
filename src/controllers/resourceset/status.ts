// What a ResourceSet's status says, as the operator writes it: the digest of the applied set
// (lastAppliedRevision, the history key; the history itself is kit/history.ts, one snapshot per digest
// and outcome as the operator's History.Upsert), and its timing annotations (reconcileEvery, default
// 60m; reconcileTimeout, default 5m).
import { createHash } from "node:crypto";
import type { Json } from "../../kustomize/yaml/emit.js";
import { toYaml } from "../../kustomize/yaml/emit.js";
import type { KubeObject } from "../../api/meta/object.js";
import { type HistoryEntry, OPERATOR_ANNOTATIONS, type ResourceSet } from "../../api/operator/resourceset.js";
import { upsertSnapshot } from "../kit/history.js";
import { annotatedMs, goDuration } from "../kit/operator-annotations.js";

/** sha256 of the objects as multi-document YAML (ssautil.ObjectsToYAML). */
export const setDigest = (objects: KubeObject[]): string =>
  "sha256:" +
  createHash("sha256")
    .update(objects.map((o) => toYaml(JSON.parse(JSON.stringify(o)) as Json)).join("---\n"))
    .digest("hex");

/** status.history after a reconcile: matched on digest AND outcome, durations as the operator prints them. */
export const recordHistory = (
  rset: ResourceSet,
  entry: { digest: string; status: string; at: Date; durationMs: number; metadata?: Record<string, string> },
): HistoryEntry[] => upsertSnapshot(rset.status?.history, entry, goDuration);

export const intervalOf = (rset: ResourceSet) => annotatedMs(rset, "reconcileEvery", 60 * 60_000);
export const timeoutOf = (rset: ResourceSet) => annotatedMs(rset, "reconcileTimeout", 5 * 60_000);
export const isForced = (o: KubeObject) =>
  o.metadata.annotations?.[OPERATOR_ANNOTATIONS.force]?.toLowerCase() === "enabled";

// Which changes re-read a fleet parent. An idle fleet must cost nothing per cluster beyond the probes: a
// Cluster's probe timestamp, a child's routine status write and a source's poll change nothing the
// fan-out decides on, so only readiness, labels, spec, what was applied and new artifacts count.
import { APPROVE_ANNOTATION } from "../../api/fleet/rollout.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Predicate } from "../../runtime/controller.js";

const conditionOf = (o: KubeObject, type: string) => {
  const c = (o.status as { conditions?: Condition[] } | undefined)?.conditions?.find((x) => x.type === type);
  return c ? `${c.status}/${c.reason}/${c.message}/${c.observedGeneration}` : "";
};
const readyOf = (o: KubeObject) => conditionOf(o, "Ready");
const labelsOf = (o: KubeObject) => JSON.stringify(o.metadata.labels ?? {});
/** A Cluster matters to the fan-out when its labels, spec, readiness or writability change — not at every probe's timestamp. */
export const clusterChanged: Predicate = (o, n) =>
  labelsOf(o) !== labelsOf(n) ||
  o.metadata.generation !== n.metadata.generation ||
  readyOf(o) !== readyOf(n) ||
  conditionOf(o, "Writable") !== conditionOf(n, "Writable");
const revisionOf = (o: KubeObject) => {
  const s = o.status as { lastAppliedRevision?: string; history?: { chartVersion?: string }[] } | undefined;
  return `${s?.lastAppliedRevision ?? ""}/${s?.history?.[0]?.chartVersion ?? ""}`;
};
/** A child matters to its parent when its readiness or what it applied changes — not at every status write. */
export const childChanged: Predicate = (o, n) =>
  readyOf(o) !== readyOf(n) ||
  o.metadata.generation !== n.metadata.generation ||
  revisionOf(o) !== revisionOf(n) ||
  Boolean(o.metadata.deletionTimestamp) !== Boolean(n.metadata.deletionTimestamp);

const artifactOf = (o: KubeObject) => {
  const a = (o.status as { artifact?: { revision?: string; digest?: string } } | undefined)?.artifact;
  // The revision too: a commit with an identical tree is a new revision for a rollout.
  return `${a?.revision ?? ""}/${a?.digest ?? ""}`;
};
/** A source matters when it offers a new artifact (or its readiness changes), not at every poll. */
export const sourceChanged: Predicate = (o, n) => artifactOf(o) !== artifactOf(n) || readyOf(o) !== readyOf(n);

export const approvalChanged: Predicate = (o, n) =>
  (o.metadata.annotations?.[APPROVE_ANNOTATION] ?? "") !== (n.metadata.annotations?.[APPROVE_ANNOTATION] ?? "");

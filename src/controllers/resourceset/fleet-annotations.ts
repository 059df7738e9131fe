// The fleet annotations of a ResourceSet that targets Clusters besides fleet.flotilla.dev/target-clusters
// (decision 0053): `rollout` (the fleet kinds' spec.rollout as YAML or JSON: stages by clusterSelector,
// maxUnavailable, bakeTime, approval), `approve` (the fleet kinds' approval annotation), `on-cluster-removal`
// and `cluster-removal-grace-period` (the fleet kinds' spec fields, decision 0031). Annotations, so the
// operator's schema is untouched; each is checked here and refused by name, never half-read.
import { parse as parseYaml } from "yaml";
import type { ClusterRemovalPolicy } from "../../api/fleet/fleet-kustomization.js";
import { APPROVE_ANNOTATION, type Rollout, type RolloutStage, UNSTAGED } from "../../api/fleet/rollout.js";
import type { KubeObject } from "../../api/meta/object.js";
import { parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../kit/failure.js";
import { budgetOf } from "../kit/rollout-plan.js";
import { UNSUPPORTED_FIELD } from "../kit/unsupported.js";

export const ROLLOUT_ANNOTATION = "fleet.flotilla.dev/rollout";
export const ON_CLUSTER_REMOVAL_ANNOTATION = "fleet.flotilla.dev/on-cluster-removal";
export const GRACE_PERIOD_ANNOTATION = "fleet.flotilla.dev/cluster-removal-grace-period";
export { APPROVE_ANNOTATION };
/** The fleet kinds' --cluster-removal-grace-period default (decision 0031). */
export const DEFAULT_GRACE_MS = 10 * 60_000;

const refuse = (r: KubeObject, annotation: string, what: string) =>
  new ReconcileFailure(
    UNSUPPORTED_FIELD,
    `the annotation ${annotation} on ResourceSet/${r.metadata.namespace}/${r.metadata.name} ${what}`,
    { stalled: true },
  );

const STAGE_KEYS = ["name", "clusterSelector", "maxUnavailable", "bakeTime", "approval"];
const SELECTOR_KEYS = ["matchLabels", "matchExpressions", "names"];
const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"];

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function checkStage(raw: unknown, at: string, seen: Set<string>): string | undefined {
  if (!isMap(raw)) return `${at} is not an object`;
  const unknown = Object.keys(raw).find((k) => !STAGE_KEYS.includes(k));
  if (unknown) return `${at}.${unknown} is not a stage field (${STAGE_KEYS.join(", ")})`;
  if (typeof raw.name !== "string" || !raw.name) return `${at}.name is missing`;
  if (raw.name === UNSTAGED) return `${at}.name "${UNSTAGED}" is reserved for the clusters no stage selects: rename it`;
  if (seen.has(raw.name)) return `${at}.name "${raw.name}" is used by an earlier stage`;
  seen.add(raw.name);
  const sel = raw.clusterSelector;
  if (sel !== undefined) {
    if (!isMap(sel)) return `${at}.clusterSelector is not an object`;
    const bad = Object.keys(sel).find((k) => !SELECTOR_KEYS.includes(k));
    if (bad) return `${at}.clusterSelector.${bad} is not a selector field (${SELECTOR_KEYS.join(", ")})`;
    if (
      sel.matchLabels !== undefined &&
      (!isMap(sel.matchLabels) || Object.values(sel.matchLabels).some((v) => typeof v !== "string"))
    )
      return `${at}.clusterSelector.matchLabels must map label keys to strings`;
    if (sel.names !== undefined && (!Array.isArray(sel.names) || sel.names.some((n) => typeof n !== "string")))
      return `${at}.clusterSelector.names must be a list of Cluster names`;
    const exprs = sel.matchExpressions;
    if (
      exprs !== undefined &&
      (!Array.isArray(exprs) ||
        exprs.some((e) => !isMap(e) || typeof e.key !== "string" || !OPERATORS.includes(e.operator as string)))
    )
      return `${at}.clusterSelector.matchExpressions needs {key, operator: ${OPERATORS.join("|")}, values}`;
  }
  if (raw.approval !== undefined && raw.approval !== "Auto" && raw.approval !== "Manual")
    return `${at}.approval "${String(raw.approval)}" is neither Auto nor Manual`;
  if (raw.bakeTime !== undefined) {
    try {
      parseDuration(String(raw.bakeTime));
    } catch (err) {
      return `${at}.bakeTime: ${(err as Error).message}`;
    }
  }
  try {
    budgetOf(raw.maxUnavailable as number | string | undefined, 1);
  } catch (err) {
    return `${at}.maxUnavailable: ${(err as Error).message}`;
  }
  return undefined;
}

/** The rollout the annotation declares, checked; undefined without the annotation (every Cluster at once). */
export function rolloutOf(r: KubeObject): Rollout | undefined {
  const text = r.metadata.annotations?.[ROLLOUT_ANNOTATION];
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw refuse(r, ROLLOUT_ANNOTATION, `is not YAML or JSON: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!isMap(raw) || !Array.isArray(raw.stages) || !raw.stages.length)
    throw refuse(
      r,
      ROLLOUT_ANNOTATION,
      "must hold {stages: [{name, clusterSelector, bakeTime, approval}, ...]} with at least one stage",
    );
  const extra = Object.keys(raw).find((k) => k !== "stages");
  if (extra) throw refuse(r, ROLLOUT_ANNOTATION, `has a key '${extra}': only 'stages' is known`);
  const seen = new Set<string>();
  for (const [i, s] of raw.stages.entries()) {
    const why = checkStage(s, `stages[${i}]`, seen);
    if (why) throw refuse(r, ROLLOUT_ANNOTATION, `is refused: ${why}`);
  }
  return { stages: raw.stages as RolloutStage[] };
}

export interface RemovalSettings {
  policy: ClusterRemovalPolicy;
  graceMs: number;
}

/** onClusterRemoval (default Orphan) and the grace period (default: the controller's, else 10m), as decision 0031. */
export function removalOf(r: KubeObject, defaultGraceMs = DEFAULT_GRACE_MS): RemovalSettings {
  const annotations = r.metadata.annotations ?? {};
  const policy = annotations[ON_CLUSTER_REMOVAL_ANNOTATION] ?? "Orphan";
  if (policy !== "Orphan" && policy !== "Prune")
    throw refuse(r, ON_CLUSTER_REMOVAL_ANNOTATION, `is "${policy}": use Orphan (the default) or Prune`);
  const grace = annotations[GRACE_PERIOD_ANNOTATION];
  let graceMs = defaultGraceMs;
  if (grace !== undefined)
    try {
      graceMs = parseDuration(grace);
    } catch (err) {
      throw refuse(r, GRACE_PERIOD_ANNOTATION, `is refused: ${(err as Error).message}`);
    }
  return { policy, graceMs };
}

/** The fleet annotations that only mean something with target-clusters. */
export const CLUSTER_MODE_ANNOTATIONS = [
  ROLLOUT_ANNOTATION,
  APPROVE_ANNOTATION,
  ON_CLUSTER_REMOVAL_ANNOTATION,
  GRACE_PERIOD_ANNOTATION,
];

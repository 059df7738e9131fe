// What `flotilla plan` reports: per cluster, per app (a Kustomization or HelmRelease, or a fleet parent's
// child on that cluster), the objects an apply would create, change (with the fields), prune, leave
// unchanged, skip, or fail on — computed without writing anything.
import type { FieldChange } from "../../ssa/index.js";

export type AppKind = "Kustomization" | "HelmRelease" | "ResourceSet";

export interface AppPlan {
  /** `management`, a Cluster's `<namespace>/<name>`, or `secret/<namespace>/<name>` (as `flotilla status`). */
  cluster: string;
  kind: AppKind;
  namespace: string;
  name: string;
  /** How the plan reached it: the source it reads, or the parent that renders or fans it out. */
  via: string;
  create: string[];
  change: { subject: string; diff: FieldChange[]; reason?: string }[];
  prune: string[];
  unchanged: number;
  skipped: { subject: string; reason: string }[];
  /** What the apply would fail on: one per object, or one for the app (a render that fails). */
  errors: { subject?: string; message: string }[];
  /** What this plan could not know or decided not to follow. */
  notes: string[];
}

export interface FleetPlan {
  mode: "online" | "offline";
  /** The replaced sources, `Kind/namespace/name=<where>`. */
  sources: string[];
  apps: AppPlan[];
  /** What an offline plan cannot know (said once, at the top). */
  caveats: string[];
}

export const hasChanges = (a: AppPlan) => a.create.length + a.change.length + a.prune.length > 0;
export const hasErrors = (a: AppPlan) => a.errors.length > 0;

/** Flux's diff exit codes: 0 nothing would change, 1 something would, 2 an apply would fail (or the plan did). */
export function exitCodeOf(plan: FleetPlan): 0 | 1 | 2 {
  if (plan.apps.some(hasErrors)) return 2;
  return plan.apps.some(hasChanges) ? 1 : 0;
}

export function emptyAppPlan(cluster: string, kind: AppKind, namespace: string, name: string, via: string): AppPlan {
  return {
    cluster,
    kind,
    namespace,
    name,
    via,
    create: [],
    change: [],
    prune: [],
    unchanged: 0,
    skipped: [],
    errors: [],
    notes: [],
  };
}

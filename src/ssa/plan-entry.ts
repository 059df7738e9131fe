// The public face of planning: what an apply of a set would do to each object, in words a diff or a
// whole-fleet plan can print — create, update (with the fields that change), unchanged, skip (and
// why), fail (and why) — built from the same per-object plans apply writes from (plan.ts).
import type { KubeObject } from "../api/meta/object.js";
import { type ChangeSetEntry, entryFor } from "./changeset.js";
import { fieldDiff, type FieldChange, type PathSegment } from "./diff.js";
import { driftView } from "./drift.js";
import type { Plan } from "./plan.js";
import type { Redactor } from "./redact.js";

export type PlanAction = "create" | "update" | "unchanged" | "skip" | "fail";

export interface PlanEntry extends Omit<ChangeSetEntry, "action"> {
  action: PlanAction;
  /** update: the fields that would change, Secret data shown as `***`. */
  diff?: FieldChange[];
  /** skip: why the object is left alone; fail: what is wrong; create/update: anything else that would happen. */
  reason?: string;
}

const secretData = (o: KubeObject) => (path: PathSegment[]) =>
  o.apiVersion === "v1" && o.kind === "Secret" && (path[0] === "data" || path[0] === "stringData");

/** `live` reduced to the fields `shape` has (a re-created object is compared on what the set says). */
function within(live: unknown, shape: unknown): unknown {
  if (!live || !shape || typeof live !== "object" || typeof shape !== "object" || Array.isArray(shape)) return live;
  const l = live as Record<string, unknown>;
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, within(l[k], v)]));
}

function redacted(value: unknown, redactor: Redactor): unknown {
  if (typeof value === "string") return redactor.redact(value);
  if (Array.isArray(value)) return value.map((v) => redacted(v, redactor));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v, redactor)]));
  return value;
}

/** The changed fields, Secret data masked and any Secret value elsewhere redacted. */
function changes(before: unknown, after: unknown, of: KubeObject, redactor: Redactor): FieldChange[] {
  return fieldDiff(before, after, secretData(of)).map((c) => ({
    ...c,
    ...("before" in c ? { before: redacted(c.before, redactor) } : {}),
    ...("after" in c ? { after: redacted(c.after, redactor) } : {}),
  }));
}

/**
 * One object's plan as the public plan reports it. `redactor` must know the Secrets of the set and
 * the live ones, so that no value of either appears in a diff.
 */
export function planEntry(plan: Plan, redactor: Redactor): PlanEntry {
  const { action: _a, ...id } = entryFor(plan.desired, plan.action);
  const entry = (action: PlanAction, more: Partial<PlanEntry> = {}): PlanEntry => ({ ...id, action, ...more });
  if (plan.failure) return entry("fail", { reason: plan.failure.message });
  switch (plan.action) {
    case "skipped":
      return entry("skip", { reason: plan.skipped });
    case "unchanged":
      return entry("unchanged");
    case "configured":
      return entry("update", {
        // Without a live object (not allowed to read it) every field shows as added.
        diff: changes(plan.live && driftView(plan.live), driftView(plan.dryRun!), plan.desired, redactor),
        ...(plan.takeover?.length ? { reason: "takes over fields set by other field managers" } : {}),
      });
    default:
      if (plan.recreate) {
        // No dry-run can show the result (the server refuses the change): compare what the set says.
        const desired = driftView(plan.desired);
        return entry("update", {
          diff: changes(within(driftView(plan.live!), desired), desired, plan.desired, redactor),
          reason: "an immutable field changes: deleted and created again (force)",
        });
      }
      return plan.deferred
        ? entry("create", { reason: "not dry-run yet: its namespace or definition is created by the same set" })
        : entry("create");
  }
}

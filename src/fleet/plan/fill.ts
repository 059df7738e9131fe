// An app's outcome (per-object plan entries and deletions) into the report's buckets.
import type { AppOutcome } from "./backend.js";
import type { AppPlan } from "./types.js";

export function fill(plan: AppPlan, outcome: AppOutcome): AppPlan {
  for (const e of outcome.entries) {
    if (e.action === "create") plan.create.push(e.subject);
    else if (e.action === "update")
      plan.change.push({ subject: e.subject, diff: e.diff ?? [], ...(e.reason ? { reason: e.reason } : {}) });
    else if (e.action === "unchanged") plan.unchanged++;
    else if (e.action === "skip") plan.skipped.push({ subject: e.subject, reason: e.reason ?? "" });
    else plan.errors.push({ subject: e.subject, message: e.reason ?? "the dry-run failed" });
  }
  plan.prune.push(...outcome.deleted);
  return plan;
}

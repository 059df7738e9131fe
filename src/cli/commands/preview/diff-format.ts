// flux diff's text (internal/build/diff.go): `► Kind/ns/name created|drifted|deleted|skipped`, and under a
// drifted object its changed fields in dyff's brief layout. Secret values arrive masked (PlanEntry).
import type { FieldChange, PlanEntry } from "../../../ssa/index.js";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function field(c: FieldChange): string {
  if ("before" in c && c.before !== undefined && "after" in c && c.after !== undefined)
    return `${c.path}\n  ± value change\n    - ${show(c.before)}\n    + ${show(c.after)}\n`;
  if (c.after !== undefined) return `${c.path}\n  + one map entry added:\n    ${show(c.after)}\n`;
  return `${c.path}\n  - one map entry removed:\n    ${show(c.before)}\n`;
}

/** The diff text and whether anything would change. */
export function formatDiff(entries: PlanEntry[], deleted: string[]): { text: string; changed: boolean } {
  let text = "";
  let changed = false;
  for (const e of entries) {
    if (e.action === "create") {
      text += `► ${e.subject} created\n`;
      changed = true;
    } else if (e.action === "update") {
      text += `► ${e.subject} drifted\n\n${(e.diff ?? []).map(field).join("\n")}\n`;
      changed = true;
    } else if (e.action === "skip") {
      text += `► ${e.subject} skipped${e.reason ? `: ${e.reason}` : ""}\n`;
    }
  }
  for (const subject of deleted) {
    text += `► ${subject} deleted\n`;
    changed = true;
  }
  return { text, changed };
}

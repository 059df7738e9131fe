// Field-level differences between two JSON values, for a plan's "update" (live → what the dry-run
// says the object would become). Objects are compared key by key and arrays index by index, so a
// change reads as the fields a person would point at: `spec.template.spec.containers[0].image`.
import { deepEqual } from "./drift.js";

export interface FieldChange {
  /** Dotted path; keys that are not plain words in brackets (`metadata.labels["app.kubernetes.io/name"]`). */
  path: string;
  /** Absent before (an added field) when undefined. */
  before?: unknown;
  /** Absent after (a removed field) when undefined. */
  after?: unknown;
}

export type PathSegment = string | number;

const WORD = /^[A-Za-z_$][\w$-]*$/;

export function formatPath(segments: PathSegment[]): string {
  return segments
    .map((s, i) =>
      typeof s === "number" ? `[${s}]` : WORD.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`,
    )
    .join("");
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The changed leaves from `before` to `after`. `mask(path)` says which fields must not show their
 * values (Secret data): a change there is still listed, with its values replaced by flux's masks.
 */
export function fieldDiff(
  before: unknown,
  after: unknown,
  mask: (path: PathSegment[]) => boolean = () => false,
  path: PathSegment[] = [],
): FieldChange[] {
  if (deepEqual(before, after)) return [];
  // A map added or removed whole is listed field by field, so each added label or key shows.
  if ((isMap(before) || before === undefined) && (isMap(after) || after === undefined)) {
    const [b, a] = [before ?? {}, after ?? {}] as Record<string, unknown>[];
    const keys = [...new Set([...Object.keys(b!), ...Object.keys(a!)])];
    return keys.flatMap((k) => fieldDiff(b![k], a![k], mask, [...path, k]));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => fieldDiff(before[i], after[i], mask, [...path, i])).flat();
  }
  const hidden = mask(path);
  const change: FieldChange = { path: formatPath(path) };
  // Masked as flux's ssa.SanitizeUnstructuredData masks Secret data: a changed value is
  // "*** (before)" → "*** (after)", an added or removed one "***".
  const both = before !== undefined && after !== undefined;
  if (before !== undefined) change.before = hidden ? (both ? "*** (before)" : "***") : before;
  if (after !== undefined) change.after = hidden ? (both ? "*** (after)" : "***") : after;
  return [change];
}

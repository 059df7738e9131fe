// Status conditions as Flux writes them: one per type, lastTransitionTime changing only when the
// status does, observedGeneration on each, and Ready summarising the object (the vocabulary: api/meta/conditions.ts).
import { type Condition, READY } from "../api/meta/conditions.js";

export function getCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isTrue(conditions: Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === "True";
}

/** Sets (or replaces) a condition, keeping lastTransitionTime when the status did not change. */
export function setCondition(
  conditions: Condition[],
  next: Omit<Condition, "lastTransitionTime">,
  now = new Date(),
): Condition[] {
  const existing = getCondition(conditions, next.type);
  const lastTransitionTime =
    existing && existing.status === next.status
      ? existing.lastTransitionTime
      : now.toISOString().replace(/\.\d{3}Z$/, "Z");
  const updated: Condition = { ...next, lastTransitionTime };
  // Ready first, then the rest in their existing order, as kubectl and flux show them.
  const rest = conditions.filter((c) => c.type !== next.type);
  const all = existing ? conditions.map((c) => (c.type === next.type ? updated : c)) : [...rest, updated];
  return [...all.filter((c) => c.type === READY), ...all.filter((c) => c.type !== READY)];
}

export function removeCondition(conditions: Condition[], type: string): Condition[] {
  return conditions.filter((c) => c.type !== type);
}

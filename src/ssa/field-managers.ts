// "Override" takes back fields other tools changed: entries in managedFields written by kubectl (any
// `kubectl*` manager), before-first-apply, or our own Update operations are folded into our Apply
// entry. The next forced apply then owns those fields and removes the ones the manifest does not set.
import type { KubeObject, ManagedFieldsEntry } from "../api/meta/object.js";

export interface ManagerMatch {
  /** Prefix of the manager name (`kubectl` matches `kubectl-edit`, `kubectl-client-side-apply`, ...). */
  name: string;
  operation: "Apply" | "Update";
}

export function defaultTakeoverManagers(fieldManager: string): ManagerMatch[] {
  return [
    { name: "kubectl", operation: "Apply" },
    { name: "kubectl", operation: "Update" },
    { name: "before-first-apply", operation: "Update" },
    { name: fieldManager, operation: "Update" },
  ];
}

/** Annotations and labels left by client-side tools that an Override apply removes. */
const STALE_ANNOTATIONS = [
  "kubectl.kubernetes.io/last-applied-configuration",
  "kustomize.toolkit.fluxcd.io/checksum",
  "fluxcd.io/sync-checksum",
];
const STALE_LABELS = ["fluxcd.io/sync-gc-mark"];

type FieldSet = Record<string, unknown>;

function unionFieldSets(a: FieldSet = {}, b: FieldSet = {}): FieldSet {
  const out: FieldSet = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && typeof prev === "object" && v && typeof v === "object"
        ? unionFieldSets(prev as FieldSet, v as FieldSet)
        : v;
  }
  return out;
}

const escapePointer = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

export interface JsonPatchOp {
  op: "remove" | "replace";
  path: string;
  value?: unknown;
}

/** The JSON patch that hands other managers' fields to `fieldManager`, or [] when there is nothing to take. */
export function takeoverPatch(live: KubeObject, fieldManager: string, managers: ManagerMatch[]): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  for (const key of STALE_ANNOTATIONS) {
    if (live.metadata.annotations?.[key] !== undefined)
      ops.push({ op: "remove", path: `/metadata/annotations/${escapePointer(key)}` });
  }
  for (const key of STALE_LABELS) {
    if (live.metadata.labels?.[key] !== undefined)
      ops.push({ op: "remove", path: `/metadata/labels/${escapePointer(key)}` });
  }
  const entries = live.metadata.managedFields ?? [];
  const matches = (e: ManagedFieldsEntry) =>
    !e.subresource && managers.some((m) => (e.manager ?? "").startsWith(m.name) && e.operation === m.operation);
  let ours: ManagedFieldsEntry | undefined = [...entries]
    .reverse()
    .find((e) => e.manager === fieldManager && e.operation === "Apply");
  const kept: ManagedFieldsEntry[] = [];
  let edited = false;
  for (const entry of entries) {
    if (entry === ours) continue;
    if (!matches(entry)) {
      kept.push(entry);
      continue;
    }
    edited = true;
    if (!ours) ours = { ...entry, manager: fieldManager, operation: "Apply" };
    else ours = { ...ours, fieldsV1: unionFieldSets(ours.fieldsV1, entry.fieldsV1) };
  }
  if (edited && ours) ops.push({ op: "replace", path: "/metadata/managedFields", value: [...kept, ours] });
  return ops;
}

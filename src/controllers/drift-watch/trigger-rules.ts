// Which change to an applied object brings its owner's reconcile forward (decision 0026): pure rules
// on what a metadata-only watch sees, never spec, data or status. A change counts only if a re-apply
// would revert it, and server-side apply says exactly that in managedFields: our field manager's
// entry (`Own`) holds the fields we set. Nobody else can add fields to it; someone else's edit of a
// field we own (an Update, a forced Apply, a /scale) moves the field out of it; a removal drops it.
// So our entry lost fields, or went, exactly when there is something to put back. Everything else —
// a third party's annotation, a label a controller adds, a status write — leaves our entry as it was.
import { createHash } from "node:crypto";
import type { KubeObject, ManagedFieldsEntry } from "../../api/meta/object.js";

/** Who "we" are in managedFields: the owner kind's field manager, and its operation (any if unset). */
export interface Own {
  manager: string;
  operation?: "Apply" | "Update";
}

/** What a watch keeps of one object (no body): a digest of our entries' fields, and their time. */
export interface Tracked {
  /** Digest of our entries' fieldsV1; undefined when we own nothing on the object. */
  own?: string;
  /** Newest time of our entries: it moves only when we write. */
  ownTime?: string;
}

export interface Verdict {
  trigger: boolean;
  why: string;
  /** The newest writer other than us (the likely editor). */
  by?: string;
}

/** Why the owner's reconcile would leave this object as it is (its kind's opt-outs), if it would. */
export type Exemption = (obj: KubeObject, deleted: boolean) => string | undefined;

/** The owner a Flux label pair names (`<group>/name`, `<group>/namespace`). */
export function ownerOf(obj: KubeObject, labelGroup: string): { namespace: string; name: string } | undefined {
  const name = obj.metadata.labels?.[`${labelGroup}/name`];
  const namespace = obj.metadata.labels?.[`${labelGroup}/namespace`];
  return name && namespace ? { namespace, name } : undefined;
}

/** Only objects carrying both owner labels are watched. */
export const ownerLabelSelector = (labelGroup: string) => `${labelGroup}/name,${labelGroup}/namespace`;

const isOwn = (e: ManagedFieldsEntry, own: Own) =>
  e.manager === own.manager && !e.subresource && (!own.operation || e.operation === own.operation);

/** JSON with object keys sorted: the same field set gives the same text whatever the server's order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

export function track(obj: KubeObject, own: Own): Tracked {
  const entries = (obj.metadata.managedFields ?? []).filter((e) => isOwn(e, own));
  if (!entries.length) return {};
  const sets = entries.map((e) => `${e.operation ?? ""}${canonical(e.fieldsV1 ?? {})}`).sort();
  const ownTime = entries.reduce((t, e) => (e.time && e.time > t ? e.time : t), "");
  return {
    own: createHash("sha256").update(sets.join("\n")).digest("base64url").slice(0, 22),
    ...(ownTime ? { ownTime } : {}),
  };
}

/** Managers of the newest non-status entries (ties: all of them). */
export function lastWriters(obj: KubeObject): string[] {
  const entries = (obj.metadata.managedFields ?? []).filter((e) => e.subresource !== "status" && e.time);
  const newest = entries.reduce((t, e) => (e.time! > t ? e.time! : t), "");
  return entries.filter((e) => e.time === newest).map((e) => e.manager ?? "");
}

/** A MODIFIED event, against what the watch had tracked of the object before it. */
export function judgeModified(before: Tracked | undefined, obj: KubeObject, own: Own, exemption: Exemption): Verdict {
  if (!before) return { trigger: false, why: "not tracked (over the watch's object budget)" };
  const now = track(obj, own);
  // Unchanged: nothing of ours was taken. Before undefined: we owned nothing, only we can add to it.
  if (before.own === undefined || now.own === before.own) return { trigger: false, why: "our fields unchanged" };
  if (obj.metadata.deletionTimestamp) return { trigger: false, why: "being deleted" };
  const exempt = exemption(obj, false);
  if (exempt) return { trigger: false, why: exempt };
  // Our own write moved our entry's time and is the newest write. (The exact test — this process
  // wrote this resourceVersion — is made when the owner is due; this one holds for the helm process.)
  const writers = lastWriters(obj);
  if (now.ownTime !== before.ownTime && writers.includes(own.manager))
    return { trigger: false, why: `applied by ${own.manager}` };
  const by = writers.find((w) => w !== own.manager);
  // No newer entry of someone else: fields were removed (an edit that owns nothing leaves no entry).
  return by ? { trigger: true, why: `edited by ${by}`, by } : { trigger: true, why: "fields removed" };
}

export function judgeDeleted(obj: KubeObject, exemption: Exemption): Verdict {
  const exempt = exemption(obj, true);
  return exempt ? { trigger: false, why: exempt } : { trigger: true, why: "deleted" };
}

// Which change to an applied object brings its owner's reconcile forward (decision 0026): pure rules
// on what a metadata-only watch sees — labels, annotations, generation and managedFields, never spec,
// data or status. Server-side apply records every write in managedFields: editing a field moves its
// ownership to the editor, removing one drops it from its owner's entry, a status update touches
// only a `status` subresource entry (and the labels or annotations it owns, as the deployment
// controller's revision annotation). So "everything but what status writes own" changes exactly when
// someone changed what the object is; the rest only tells whose change it was.
import { createHash } from "node:crypto";
import type { KubeObject, ManagedFieldsEntry } from "../../api/meta/object.js";

/** What a watch keeps of one object (no body): a digest of all but status, and our entry's time. */
export interface Tracked {
  digest: string;
  /** Time of the field manager's own Apply entry: it moves only when we apply. */
  ownTime?: string;
}

export interface Verdict {
  trigger: boolean;
  why: string;
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

const isStatus = (e: ManagedFieldsEntry) => e.subresource === "status";
// Any operation: helm without server-side apply writes as an Update.
const isOwn = (e: ManagedFieldsEntry, fieldManager: string) => e.manager === fieldManager && !e.subresource;

/** Labels or annotations without the keys a status write owns. */
function withoutStatusOwned(
  values: Record<string, string> | undefined,
  statusEntries: ManagedFieldsEntry[],
  field: "f:labels" | "f:annotations",
): Record<string, string> {
  const owned = new Set<string>();
  for (const e of statusEntries) {
    const keys = (e.fieldsV1?.["f:metadata"] as Record<string, Record<string, unknown>> | undefined)?.[field];
    for (const k of Object.keys(keys ?? {})) if (k.startsWith("f:")) owned.add(k.slice(2));
  }
  return Object.fromEntries(Object.entries(values ?? {}).filter(([k]) => !owned.has(k)));
}

export function track(obj: KubeObject, fieldManager: string): Tracked {
  const m = obj.metadata;
  const entries = (m.managedFields ?? []).filter((e) => !isStatus(e));
  const status = (m.managedFields ?? []).filter(isStatus);
  const labels = withoutStatusOwned(m.labels, status, "f:labels");
  const annotations = withoutStatusOwned(m.annotations, status, "f:annotations");
  const digest = createHash("sha256")
    .update(JSON.stringify([labels, annotations, m.generation ?? 0, entries]))
    .digest("base64url")
    .slice(0, 22);
  return { digest, ownTime: m.managedFields?.find((e) => isOwn(e, fieldManager))?.time };
}

/** Managers of the newest non-status entries (ties: all of them). */
export function lastWriters(obj: KubeObject): string[] {
  const entries = (obj.metadata.managedFields ?? []).filter((e) => !isStatus(e) && e.time);
  const newest = entries.reduce((t, e) => (e.time! > t ? e.time! : t), "");
  return entries.filter((e) => e.time === newest).map((e) => e.manager ?? "");
}

/** A MODIFIED event, against what the watch had tracked of the object before it. */
export function judgeModified(
  before: Tracked | undefined,
  obj: KubeObject,
  fieldManager: string,
  exemption: Exemption,
): Verdict {
  if (!before) return { trigger: false, why: "not tracked (over the watch's object budget)" };
  const now = track(obj, fieldManager);
  if (now.digest === before.digest) return { trigger: false, why: "status only" };
  if (obj.metadata.deletionTimestamp) return { trigger: false, why: "being deleted" };
  const exempt = exemption(obj, false);
  if (exempt) return { trigger: false, why: exempt };
  // Our own apply moved our entry's time and is the newest write. (The exact test — this process
  // wrote this resourceVersion — is made when the owner is due; this one holds for any replica.)
  const writers = lastWriters(obj);
  if (now.ownTime !== before.ownTime && writers.includes(fieldManager))
    return { trigger: false, why: `applied by ${fieldManager}` };
  const by = writers.find((w) => w !== fieldManager);
  // No newer entry of someone else: fields were removed (an edit that owns nothing leaves no entry).
  return { trigger: true, why: by ? `edited by ${by}` : "fields removed" };
}

export function judgeDeleted(obj: KubeObject, exemption: Exemption): Verdict {
  const exempt = exemption(obj, true);
  return exempt ? { trigger: false, why: exempt } : { trigger: true, why: "deleted" };
}

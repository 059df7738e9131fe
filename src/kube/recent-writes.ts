// The object versions this process itself wrote (create, update, patch, apply — never dry-runs), and
// the objects it deleted, remembered for a while. A watch that reacts to other people's changes asks
// here whether an event is only the echo of our own write: the resourceVersion of a write is the one
// its MODIFIED event carries, and the uid of a deleted object the one its DELETED event carries, so
// the answer is exact, with no clock or field-manager guessing. A deletion is also remembered by
// `group/resource/namespace/name` for a short while, for a deletion seen without a uid (a relist found
// the object gone) or a DELETE whose response named none.
//
// Bounded: at most MAX_ENTRIES of each (~100 bytes each), writes and uids kept TTL_MS, names REF_TTL_MS;
// the oldest go first.

const MAX_ENTRIES = 20_000;
const TTL_MS = 10 * 60_000;
const REF_TTL_MS = 30_000;

/** How a deletion is named without its uid: `group/resource/namespace/name` ("" for the core group). */
export const deleteRef = (group: string, resource: string, namespace: string, name: string) =>
  `${group}/${resource}/${namespace}/${name}`;

/** The deleteRef of an object's API path (`/api/v1/…` or `/apis/<group>/<version>/…`), if it is one. */
export function deleteRefOfPath(path: string): string | undefined {
  let segments: string[];
  try {
    segments = path.split("?")[0]!.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  let group: string;
  let rest: string[];
  if (segments[0] === "api") [group, rest] = ["", segments.slice(2)];
  else if (segments[0] === "apis") [group, rest] = [segments[1] ?? "", segments.slice(3)];
  else return undefined;
  if (rest.length === 4 && rest[0] === "namespaces") return deleteRef(group, rest[2]!, rest[1]!, rest[3]!);
  if (rest.length === 2) return deleteRef(group, rest[0]!, "", rest[1]!);
  return undefined; // a collection or a subresource
}

/** Time-ordered, bounded set of keys (Map insertion order is age order). */
class Recent<V> {
  private readonly entries = new Map<string, { at: number; value: V }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { at: this.now(), value });
    this.evict();
  }

  get(key: string): { value: V } | undefined {
    this.evict();
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    const oldest = this.now() - this.ttlMs;
    for (const [key, { at }] of this.entries) {
      if (this.entries.size <= this.max && at >= oldest) break;
      this.entries.delete(key);
    }
  }
}

export class RecentWrites {
  /** `uid/resourceVersion` of writes. */
  private readonly written: Recent<true>;
  /** uids of deleted objects. */
  private readonly deletedUids: Recent<true>;
  /** deleteRef → the uid deleted under it, if the response named one. */
  private readonly deletedRefs: Recent<string | undefined>;

  constructor(maxEntries = MAX_ENTRIES, ttlMs = TTL_MS, now: () => number = Date.now, refTtlMs = REF_TTL_MS) {
    this.written = new Recent(maxEntries, ttlMs, now);
    this.deletedUids = new Recent(maxEntries, ttlMs, now);
    this.deletedRefs = new Recent(maxEntries, refTtlMs, now);
  }

  /** Remembers the version a write's response carries (objects without uid or version are ignored). */
  record(response: unknown): void {
    const meta = (response as { metadata?: { uid?: unknown; resourceVersion?: unknown } } | null)?.metadata;
    if (typeof meta?.uid !== "string" || typeof meta.resourceVersion !== "string") return;
    this.written.set(`${meta.uid}/${meta.resourceVersion}`, true);
  }

  /**
   * Remembers a DELETE of the object at `path`: by the uid its response carries (the object, or a
   * Status whose details name it), and by name for REF_TTL_MS.
   */
  recordDelete(path: string, response: unknown): void {
    const r = response as { metadata?: { uid?: unknown }; details?: { uid?: unknown } } | null;
    const found = typeof response === "object" ? (r?.metadata?.uid ?? r?.details?.uid) : undefined;
    const uid = typeof found === "string" && found ? found : undefined;
    if (uid) this.deletedUids.set(uid, true);
    const ref = deleteRefOfPath(path);
    if (ref) this.deletedRefs.set(ref, uid);
  }

  /** Whether this process wrote exactly this version of the object. */
  has(uid: string | undefined, resourceVersion: string | undefined): boolean {
    if (!uid || !resourceVersion) return false;
    return this.written.get(`${uid}/${resourceVersion}`) !== undefined;
  }

  /**
   * Whether this process deleted the object: its uid, when the event has one; else (or when our
   * DELETE's response named no uid) its name, deleted by us in the last REF_TTL_MS.
   */
  deleted(uid: string | undefined, ref: string | undefined): boolean {
    if (uid && this.deletedUids.get(uid)) return true;
    const byName = ref ? this.deletedRefs.get(ref) : undefined;
    // A uid on both sides that differs: we deleted an earlier object of that name, not this one.
    return byName !== undefined && (!uid || !byName.value || byName.value === uid);
  }

  get size(): number {
    return this.written.size;
  }
}

/** The process's own writes and deletes, recorded by every KubeClient. */
export const recentWrites = new RecentWrites();

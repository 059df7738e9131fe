// The object versions this process itself wrote (create, update, patch, apply — never dry-runs),
// remembered for a while. A watch that reacts to other people's changes asks here whether a MODIFIED
// event is only the echo of our own write: the resourceVersion of a write is the one its watch event
// carries, so the answer is exact, with no clock or field-manager guessing.
//
// Bounded: at most MAX_ENTRIES versions (~100 bytes each), each kept TTL_MS; the oldest go first.

const MAX_ENTRIES = 20_000;
const TTL_MS = 10 * 60_000;

export class RecentWrites {
  /** `uid/resourceVersion` → when written (insertion order is age order). */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly ttlMs = TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Remembers the version a write's response carries (objects without uid or version are ignored). */
  record(response: unknown): void {
    const meta = (response as { metadata?: { uid?: unknown; resourceVersion?: unknown } } | null)?.metadata;
    if (typeof meta?.uid !== "string" || typeof meta.resourceVersion !== "string") return;
    const key = `${meta.uid}/${meta.resourceVersion}`;
    this.written.delete(key);
    this.written.set(key, this.now());
    this.evict();
  }

  /** Whether this process wrote exactly this version of the object. */
  has(uid: string | undefined, resourceVersion: string | undefined): boolean {
    if (!uid || !resourceVersion) return false;
    this.evict();
    return this.written.has(`${uid}/${resourceVersion}`);
  }

  get size(): number {
    return this.written.size;
  }

  private evict(): void {
    const oldest = this.now() - this.ttlMs;
    for (const [key, at] of this.written) {
      if (this.written.size <= this.maxEntries && at >= oldest) break;
      this.written.delete(key);
    }
  }
}

/** The process's own writes, recorded by every KubeClient. */
export const recentWrites = new RecentWrites();

// A counting semaphore shared fairly between keys (tenants: a namespace). Used to bound how many
// external processes (git, helm) run at a time, so a burst of reconciles cannot fork-bomb the node —
// without letting one namespace hold every slot (decision 0030):
//
// - up to `limit` holders of any keys at once, as before: one namespace alone keeps all its throughput;
// - a key that holds nothing is admitted at once beyond `limit`, up to `limit + reserve` holders in all
//   (reserve = ceil(limit / 2)): a namespace whose processes stall cannot keep another one waiting;
// - waiters are served round-robin between keys, arrival order within a key.

/** Holders admitted above `limit` at most, each for a key that holds nothing: ceil(limit / 2). */
export const fairReserve = (limit: number) => Math.ceil(limit / 2);

/**
 * The sharing rule of decision 0030, for the process slots here and for a controller's workers
 * (runtime/workqueue.ts): any key below `limit`; beyond it, only a key holding nothing, up to the reserve.
 */
export const fairlyAdmitted = (active: number, limit: number, keyHolds: number) =>
  active < limit || (keyHolds === 0 && active < limit + fairReserve(limit));

export class Semaphore {
  private active = 0;
  private readonly held = new Map<string, number>();
  private readonly queues = new Map<string, { grant: () => void }[]>();
  /** Keys with waiters, in the order they are served next. */
  private readonly turns: string[] = [];

  constructor(private limit: number) {
    if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1, got ${limit}`);
  }

  get size(): number {
    return this.limit;
  }

  /** Holders above `size` admitted at most, each for a key that held nothing. */
  get reserve(): number {
    return fairReserve(this.limit);
  }

  /** Raises or lowers the bound; holders above a lowered bound finish, new ones wait. */
  resize(limit: number): void {
    if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1, got ${limit}`);
    this.limit = limit;
    this.pump();
  }

  /** How many slots `key` holds now. */
  holding(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** Waits for a slot for `key` (or rejects with the signal's reason when aborted first); returns its release. */
  acquire(signal?: AbortSignal, key = ""): Promise<() => void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser(key));
        },
      };
      const onAbort = () => {
        const queue = this.queues.get(key) ?? [];
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        if (!queue.length) this.dropTurn(key);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const queue = this.queues.get(key);
      if (queue) queue.push(waiter);
      else {
        this.queues.set(key, [waiter]);
        this.turns.push(key);
      }
      this.pump();
    });
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const n = this.holding(key) - 1;
      if (n > 0) this.held.set(key, n);
      else this.held.delete(key);
      this.pump();
    };
  }

  private admits(key: string): boolean {
    return fairlyAdmitted(this.active, this.limit, this.holding(key));
  }

  private dropTurn(key: string): void {
    this.queues.delete(key);
    const i = this.turns.indexOf(key);
    if (i >= 0) this.turns.splice(i, 1);
  }

  private pump(): void {
    for (let i = 0; i < this.turns.length;) {
      const key = this.turns[i]!;
      if (!this.admits(key)) {
        i++;
        continue;
      }
      const queue = this.queues.get(key)!;
      const waiter = queue.shift()!;
      // Served: this key goes to the back of the line (or leaves it), and the scan starts over.
      this.turns.splice(i, 1);
      if (queue.length) this.turns.push(key);
      else this.queues.delete(key);
      this.active++;
      this.held.set(key, this.holding(key) + 1);
      waiter.grant();
      i = 0;
    }
  }
}

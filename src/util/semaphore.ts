// A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. Used to bound
// how many external processes (helm) run at a time, so a burst of reconciles cannot fork-bomb the node.

export class Semaphore {
  private active = 0;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(private limit: number) {
    if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1, got ${limit}`);
  }

  get size(): number {
    return this.limit;
  }

  /** Raises or lowers the bound; holders above a lowered bound finish, new ones wait. */
  resize(limit: number): void {
    if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1, got ${limit}`);
    this.limit = limit;
    this.pump();
  }

  /** Waits for a slot (or rejects with the signal's reason when aborted first); returns its release. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.active < this.limit && this.waiting.length) {
      this.active++;
      this.waiting.shift()!.grant();
    }
  }
}

// Changes gathered per owner for a short while, so a burst (kubectl apply of ten objects, a namespace
// deleted) is one reconcile. While the owner is being reconciled, its due changes wait for the end:
// most are that reconcile's own writes and prunes, which the owner's checks then recognise (its
// inventory and its writes are final by then).
//
// Backoff (no write war): a change that comes soon after the owner's previous drift-triggered
// reconcile — another controller rewriting a field the owner sets (an HPA against the manifest's
// replicas, an operator injecting a caBundle) — waits twice as long as the previous one (1 s, 2 s,
// 4 s … up to maxDelayMs: the owner's interval, 5 min at most); a quiet period (QUIET_MS, or twice
// the delay if longer) without a drift-triggered reconcile starts it over at delayMs.
//
// Bounded: per owner at most MAX_ITEMS distinct items (one per object, the latest kept); past that
// the owner is due whatever the items say (`overflow`); one backoff record per owner with drift.

const MAX_ITEMS = 1000;
/** Drift-triggered reconciles further apart than this (or twice the delay) are not a war. */
export const QUIET_MS = 60_000;

export interface OwnerDebounceOptions<T> {
  /** The first delay, and the one after a quiet period. */
  delayMs: number;
  /** The longest delay for this owner. */
  maxDelayMs(owner: string): number;
  /** The owner is being reconciled right now. */
  busy(owner: string): boolean;
  /**
   * The owner's changes are due (after `delayMs`): whether this queued a reconcile of it (false when
   * all were its own writes). Its errors are its own to log.
   */
  due(owner: string, items: T[], overflow: boolean, delayMs: number): boolean | Promise<boolean>;
  maxItems?: number;
  now?: () => number;
}

interface Pending<T> {
  items: Map<string, T>;
  overflow: boolean;
  delayMs: number;
  timer: NodeJS.Timeout;
}

export class OwnerDebounce<T> {
  private readonly pending = new Map<string, Pending<T>>();
  /** Per owner: the delay of its last drift-triggered reconcile, and when it was queued. */
  private readonly history = new Map<string, { delayMs: number; at: number }>();
  private readonly now: () => number;

  constructor(private readonly o: OwnerDebounceOptions<T>) {
    this.now = o.now ?? Date.now;
  }

  add(owner: string, itemKey: string, item: T): void {
    let p = this.pending.get(owner);
    if (!p) {
      const delayMs = this.delayFor(owner);
      this.pending.set(owner, (p = { items: new Map(), overflow: false, delayMs, timer: this.arm(owner, delayMs) }));
    }
    if (p.items.has(itemKey) || p.items.size < (this.o.maxItems ?? MAX_ITEMS)) p.items.set(itemKey, item);
    else p.overflow = true;
  }

  /** The delay a change of this owner would wait now. */
  delayFor(owner: string): number {
    const last = this.history.get(owner);
    if (!last) return this.o.delayMs;
    if (this.now() - last.at > Math.max(QUIET_MS, 2 * last.delayMs)) {
      this.history.delete(owner);
      return this.o.delayMs;
    }
    return Math.max(this.o.delayMs, Math.min(2 * last.delayMs, this.o.maxDelayMs(owner)));
  }

  /** The owner is gone: its pending changes and its backoff too. */
  forget(owner: string): void {
    clearTimeout(this.pending.get(owner)?.timer);
    this.pending.delete(owner);
    this.history.delete(owner);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Changes of this owner wait for their delay. */
  has(owner: string): boolean {
    return this.pending.has(owner);
  }

  stop(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.history.clear();
  }

  private arm(owner: string, delayMs: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.fire(owner), delayMs);
    timer.unref();
    return timer;
  }

  private fire(owner: string): void {
    const p = this.pending.get(owner);
    if (!p) return;
    if (this.o.busy(owner)) {
      p.timer = this.arm(owner, this.o.delayMs);
      return;
    }
    this.pending.delete(owner);
    const queued = (yes: boolean) => {
      if (yes) this.history.set(owner, { delayMs: p.delayMs, at: this.now() });
    };
    try {
      const result = this.o.due(owner, [...p.items.values()], p.overflow, p.delayMs);
      if (typeof result === "boolean") queued(result);
      else result.then(queued, () => {});
    } catch {
      // due() logs its own errors; a throw must not escape a timer
    }
  }
}

/** One task at a time per owner, in order; a failing task is reported and never holds up the next ones. */
export class OwnerSerial {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly onError: (owner: string, err: unknown) => void) {}

  run(owner: string, task: () => Promise<void> | void): Promise<void> {
    const next = (this.running.get(owner) ?? Promise.resolve()).then(task).catch((err: unknown) => {
      try {
        this.onError(owner, err);
      } catch {
        // never rejected
      }
    });
    this.running.set(owner, next);
    void next.finally(() => this.running.get(owner) === next && this.running.delete(owner));
    return next;
  }

  /** Resolves once every task run so far has settled. */
  async settled(): Promise<void> {
    await Promise.all(this.running.values());
  }
}

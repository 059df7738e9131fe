// Changes gathered per owner for a short while, so a burst (kubectl apply of ten objects, a namespace
// deleted) is one reconcile. While the owner is being reconciled, its due changes wait for the end:
// most are that reconcile's own writes and prunes, which the owner's checks then recognise (its
// inventory and its writes are final by then).
//
// Bounded: per owner at most MAX_ITEMS distinct items (one per object, the latest kept); past that
// the owner is due whatever the items say (`overflow`).

const MAX_ITEMS = 1000;

export class OwnerDebounce<T> {
  private readonly pending = new Map<string, { items: Map<string, T>; overflow: boolean; timer: NodeJS.Timeout }>();

  constructor(
    private readonly delayMs: number,
    /** The owner is being reconciled right now. */
    private readonly busy: (owner: string) => boolean,
    private readonly due: (owner: string, items: T[], overflow: boolean) => void,
    private readonly maxItems = MAX_ITEMS,
  ) {}

  add(owner: string, itemKey: string, item: T): void {
    let p = this.pending.get(owner);
    if (!p) this.pending.set(owner, (p = { items: new Map(), overflow: false, timer: this.arm(owner) }));
    if (p.items.has(itemKey) || p.items.size < this.maxItems) p.items.set(itemKey, item);
    else p.overflow = true;
  }

  get size(): number {
    return this.pending.size;
  }

  stop(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private arm(owner: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.fire(owner), this.delayMs);
    timer.unref();
    return timer;
  }

  private fire(owner: string): void {
    const p = this.pending.get(owner);
    if (!p) return;
    if (this.busy(owner)) {
      p.timer = this.arm(owner);
      return;
    }
    this.pending.delete(owner);
    this.due(owner, [...p.items.values()], p.overflow);
  }
}

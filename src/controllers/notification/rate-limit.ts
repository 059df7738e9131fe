// Flux drops an event identical to one already dispatched within --rate-limit-interval (default 5m):
// go-limiter's memory store with one token per key, refilled at each whole interval counted from the
// key's first event. Entries older than two intervals are swept, as notification-controller sweeps.
export class DuplicateLimiter {
  private readonly buckets = new Map<string, { start: number; lastTick: number }>();
  private lastSweep = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the event may go out; false when an identical one went out in this interval. */
  take(key: string): boolean {
    const now = this.now();
    this.sweep(now);
    const b = this.buckets.get(key);
    if (!b) {
      this.buckets.set(key, { start: now, lastTick: 0 });
      return true;
    }
    const tick = Math.floor((now - b.start) / this.intervalMs);
    if (tick > b.lastTick) {
      b.lastTick = tick;
      return true;
    }
    return false;
  }

  private sweep(now: number) {
    if (now - this.lastSweep < this.intervalMs) return;
    this.lastSweep = now;
    for (const [k, b] of this.buckets)
      if (now - (b.start + b.lastTick * this.intervalMs) > 2 * this.intervalMs) this.buckets.delete(k);
  }
}

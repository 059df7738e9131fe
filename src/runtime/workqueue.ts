// A work queue with client-go's semantics: a key queued twice is processed once, a key is never
// processed by two workers at once (added while processing, it is queued again when done), failed
// keys come back after a per-key exponential backoff, and keys can be scheduled for later.
// Given a capacity (the controller's --concurrent), keys are shared fairly between namespaces as the
// process slots are (decision 0030): up to `capacity` keys of any namespaces at once, and beyond that, up to
// ceil(capacity/2) more, only keys of a namespace that has none in progress — so one namespace's stalling
// objects cannot hold every worker while another's wait.

import { fairlyAdmitted, fairReserve } from "../util/semaphore.js";

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/** Flux controllers: 750 ms doubling up to 15 minutes per failing object. */
const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 750, maxMs: 15 * 60 * 1000 };

export interface QueueMetrics {
  adds: number;
  retries: number;
  /** Milliseconds keys waited in the queue before a worker took them (last 1000). */
  queueLatencies: number[];
  /** Milliseconds workers held keys (last 1000). */
  workDurations: number[];
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Map<string, number>();
  private readonly addedAt = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private readonly drainWaiters: (() => void)[] = [];
  private shuttingDown = false;
  readonly metrics: QueueMetrics = { adds: 0, retries: 0, queueLatencies: [], workDurations: [] };

  constructor(
    readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
    readonly capacity = Infinity,
  ) {}

  /** Workers a controller runs for this queue: the capacity and its reserve for idle namespaces. */
  get workers(): number {
    return this.capacity + fairReserve(this.capacity);
  }

  get depth(): number {
    return this.queue.length;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics.adds++;
    this.dirty.add(key);
    this.addedAt.set(key, performance.now());
    if (this.processing.has(key)) return; // queued again when its worker is done
    this.queue.push(key);
    this.dispatch();
  }

  /** Adds the key after `delayMs`; an earlier pending schedule for the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = Date.now() + delayMs;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.timers.set(key, { at, timer });
  }

  /** Backoff for the key's next retry: base × 2^failures, capped. */
  nextBackoff(key: string): number {
    const n = this.failures.get(key) ?? 0;
    return Math.min(this.backoff.baseMs * 2 ** n, this.backoff.maxMs);
  }

  addRateLimited(key: string): void {
    const delay = this.nextBackoff(key);
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    this.metrics.retries++;
    this.addAfter(key, delay);
  }

  /** The key succeeded: its backoff starts over. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** The key waits for a worker (or to be worked on again once its worker is done). */
  isQueued(key: string): boolean {
    return this.dirty.has(key);
  }

  /** A worker holds the key right now. */
  isProcessing(key: string): boolean {
    return this.processing.has(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  private hand(key: string, to: (key: string) => void): void {
    this.dirty.delete(key);
    this.processing.set(key, performance.now());
    record(this.metrics.queueLatencies, performance.now() - (this.addedAt.get(key) ?? performance.now()));
    to(key);
  }

  /** The next key to work on; undefined once the queue shuts down. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.dispatch();
    });
  }

  /** Index in the queue of the next key a worker may take now, -1 if none. */
  private next(): number {
    if (!this.queue.length) return -1;
    const active = this.processing.size;
    if (fairlyAdmitted(active, this.capacity, 1)) return 0; // below capacity: any key, in order
    const busy = new Set([...this.processing.keys()].map(namespaceOf));
    return this.queue.findIndex((k) => !busy.has(namespaceOf(k)) && fairlyAdmitted(active, this.capacity, 0));
  }

  private dispatch(): void {
    for (let i = this.next(); i >= 0 && this.waiters.length; i = this.next())
      this.hand(this.queue.splice(i, 1)[0]!, this.waiters.shift()!);
  }

  done(key: string): void {
    const started = this.processing.get(key);
    if (started !== undefined) record(this.metrics.workDurations, performance.now() - started);
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.queue.push(key);
    if (!this.shuttingDown) this.dispatch();
    if (this.processing.size === 0) for (const w of this.drainWaiters.splice(0)) w();
  }

  /** Stops handing out keys; resolves when every key in progress is done. */
  async shutDown(): Promise<void> {
    this.shuttingDown = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
    if (this.processing.size > 0) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }
}

const namespaceOf = (key: string) => key.slice(0, key.indexOf("/") + 1);

function record(list: number[], value: number): void {
  list.push(value);
  if (list.length > 1000) list.shift();
}

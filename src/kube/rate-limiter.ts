// Token bucket per cluster (client-go's QPS/burst): bursts up to `burst` requests, then `qps` per second.
// Shared by every client of the same cluster+credential so one busy controller cannot flood an apiserver.
import { setTimeout as sleep } from "node:timers/promises";

export interface RateLimit {
  qps: number;
  burst: number;
}

/** Flux controllers' defaults for --kube-api-qps / --kube-api-burst. */
export const DEFAULT_RATE_LIMIT: RateLimit = { qps: 50, burst: 300 };

export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly limit: RateLimit) {
    this.tokens = limit.burst;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) / 1000) * this.limit.qps);
    this.last = now;
  }

  /** Resolves when the caller may send one request; callers are served in order. */
  take(): Promise<void> {
    if (this.limit.qps <= 0) return Promise.resolve();
    const turn = this.queue.then(async () => {
      this.refill();
      if (this.tokens < 1) {
        await sleep(((1 - this.tokens) / this.limit.qps) * 1000);
        this.refill();
      }
      this.tokens -= 1;
    });
    this.queue = turn;
    return turn;
  }
}

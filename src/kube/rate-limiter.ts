// Token buckets with client-go's QPS/burst: bursts up to `burst` requests, then `qps` per second. A
// cluster+credential has one bucket per API resource kind (rateLimitKey), shared by every client of the
// process: Flux's controllers get theirs from controller-runtime, which makes one REST client — with its
// own token bucket — per kind, so --kube-api-qps 50 means 50 per kind there, and the same here
// (decision 0028; measured in bench:vs-flux).
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

// The subresources of a Namespace: `namespaces/<name>/status` is not a resource "status" in <name>.
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

/**
 * The bucket a request path draws from: `<group>/<version>/<resource>` (subresources and single
 * objects share their resource's bucket, as they share a REST client), or "discovery" for every other
 * path (/api, /apis, /version, /openapi — controller-runtime's discovery client has its own limiter).
 */
export function rateLimitKey(pathname: string): string {
  const parts = pathname.split("/").filter(Boolean);
  let rest: string[];
  let groupVersion: string;
  if (parts[0] === "api" && parts.length >= 3) {
    groupVersion = `/${parts[1]}`;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    groupVersion = `${parts[1]}/${parts[2]}`;
    rest = parts.slice(3);
  } else return "discovery";
  // As the apiserver reads it (RequestInfoFactory): namespaces/<ns>/<resource>… unless a Namespace's own subresource.
  if (rest[0] === "namespaces" && rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  return `${groupVersion}/${rest[0]}`;
}

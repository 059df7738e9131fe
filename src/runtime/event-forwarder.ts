// A Flux controller's external event recorder (fluxcd/pkg/runtime/events Recorder): with
// --events-addr=<URL>, each recorded event's Flux payload is POSTed as JSON to notification-controller's
// event endpoint. A shard of a sharded install runs this way: Alerts and Providers live with the
// main process, which is not sharded (Flux's notification-controller is not), and takes every shard's
// events through the endpoint. Flux's client: 5 s per attempt, up to 4 retries with backoff on a
// connection error or a 5xx, none on a 429 (a duplicate the receiver already dropped) or other 4xx.
// Unlike Flux's (which posts inside the reconcile), posting runs beside it: a slow or absent endpoint
// never delays a reconcile; past a bound of waiting events the newest are dropped and logged.
import type { KubeObject } from "../api/meta/object.js";
import { goJson } from "../util/go-json.js";
import type { EventSink } from "./events.js";
import type { FluxEvent } from "./flux-event.js";
import type { Logger } from "./logger.js";

export interface EventForwarderOptions {
  url: string;
  log: Logger;
  /** Attempts after the first (Flux's retryablehttp default: 4). */
  retries?: number;
  /** First backoff; doubles per retry up to 30 s (retryablehttp: 1 s … 30 s). */
  backoffMs?: number;
  timeoutMs?: number;
  /** Events posted or waiting at once before new ones are dropped. */
  maxPending?: number;
}

export interface EventForwarder {
  sink: EventSink;
  readonly stats: { posted: number; failed: number; dropped: number };
  /** Resolves once nothing is in flight (tests, shutdown). */
  idle(): Promise<void>;
  stop(): void;
}

const retriable = (status: number) => status >= 500 || status === 0;

export function eventForwarder(o: EventForwarderOptions): EventForwarder {
  const retries = o.retries ?? 4;
  const backoff = o.backoffMs ?? 1000;
  const timeout = o.timeoutMs ?? 5000;
  const maxPending = o.maxPending ?? 1000;
  const stats = { posted: 0, failed: 0, dropped: 0 };
  const stopping = new AbortController();
  let pending = 0;
  let waiters: Array<() => void> = [];

  const attempt = async (body: string): Promise<number> => {
    try {
      const res = await fetch(o.url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(timeout), stopping.signal]),
      });
      await res.body?.cancel();
      return res.status;
    } catch {
      return 0;
    }
  };

  const post = async (event: FluxEvent) => {
    const body = goJson(event);
    let status = 0;
    for (let i = 0; i <= retries && !stopping.signal.aborted; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, Math.min(backoff * 2 ** (i - 1), 30_000)));
      status = await attempt(body);
      if (!retriable(status)) break;
    }
    if (status >= 200 && status < 300) stats.posted++;
    else if (status !== 429) {
      stats.failed++;
      o.log.error("unable to record event", {
        url: o.url,
        reason: event.reason,
        object: `${event.involvedObject.kind}/${event.involvedObject.namespace}/${event.involvedObject.name}`,
        error: status ? `HTTP ${status}` : "no answer",
      });
    }
  };

  const sink: EventSink = (event: FluxEvent, _obj: KubeObject) => {
    if (stopping.signal.aborted) return;
    // Flux's recorder refuses objects without kind, name or namespace; so does this.
    const ref = event.involvedObject;
    if (!ref.kind || !ref.name || !ref.namespace) return;
    if (pending >= maxPending) {
      stats.dropped++;
      o.log.error("event endpoint behind: event dropped", { url: o.url, reason: event.reason });
      return;
    }
    pending++;
    void post(event).finally(() => {
      pending--;
      if (pending === 0) {
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve();
      }
    });
  };

  return {
    sink,
    stats,
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    stop: () => stopping.abort(),
  };
}

/** --events-addr in a Flux controller's form (an http(s) URL to post to), or undefined for a listen address. */
export function forwardUrlOf(value: string | undefined): string | undefined {
  return value !== undefined && /^https?:\/\//i.test(value) ? value : undefined;
}

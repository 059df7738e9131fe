// Sends one provider request as notification-controller's client does (hashicorp/go-retryablehttp
// with RetryMax 4, waits from 2 s doubling up to 30 s, Retry-After honoured on 429/503): retried on a
// connection error, 429 and 5xx but 501; the whole attempt bounded by the Provider's timeout
// (default 15 s). Errors never carry the address's path or query (a webhook URL is often the secret).
import { Agent, type Dispatcher, ProxyAgent, request } from "undici";
import { DeliveryFailed } from "./errors.js";
import type { OutgoingRequest } from "./providers/types.js";

export interface SendOptions {
  timeoutMs: number;
  proxy?: string;
  tls?: { ca?: string; cert?: string; key?: string };
  retryMax?: number;
  retryWaitMinMs?: number;
  retryWaitMaxMs?: number;
  /** Values to mask in error messages (token, password). */
  secrets?: string[];
  /** Aborts the delivery (the process is stopping). */
  signal?: AbortSignal;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason as Error)), { once: true });
  });

function dispatcherFor(o: SendOptions): Dispatcher {
  const connect = o.tls ? { ca: o.tls.ca, cert: o.tls.cert, key: o.tls.key } : undefined;
  return o.proxy ? new ProxyAgent({ uri: o.proxy, requestTls: connect }) : new Agent({ connect });
}

/** Where the request went, without path or query: what an error may say. */
export function redactedAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "(an address that does not parse)";
  }
}

const retryable = (status: number) => status === 429 || (status >= 500 && status !== 501);

interface Exchange {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  body?: string;
  validate?: OutgoingRequest["validate"];
  /** Non-2xx answers taken as an answer rather than a failure (a GET's 404). */
  accept?: number[];
}

/**
 * A provider's request: its duplicate check first (a GET whose answer may show the status is already
 * there), then the request, then its follow-up; one timeout bounds them all, as Flux's Post context does.
 */
export async function send(req: OutgoingRequest, o: SendOptions): Promise<void> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
  const dispatcher = dispatcherFor(o);
  try {
    for (let r: OutgoingRequest | undefined = req; r; r = r.then) {
      if (r.unlessPresent) {
        const { url, headers, accept, present } = r.unlessPresent;
        const answer = await exchange({ url, method: "GET", headers, accept }, o, dispatcher, signal);
        if (answer.status < 300 && present(answer.body)) continue;
      }
      await exchange({ ...r, method: r.method ?? "POST" }, o, dispatcher, signal);
    }
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}

async function exchange(
  req: Exchange,
  o: SendOptions,
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  const max = o.retryMax ?? 4;
  const mask = (s: string) =>
    (o.secrets ?? []).filter((x) => x.length >= 4).reduce((acc, x) => acc.split(x).join("*****"), s);
  const where = redactedAddress(req.url);
  let last = "";
  for (let attempt = 0; attempt <= max; attempt++) {
    let waitMs = Math.min((o.retryWaitMinMs ?? 2000) * 2 ** attempt, o.retryWaitMaxMs ?? 30_000);
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal,
      });
      const text = await res.body.text();
      if ((res.statusCode >= 200 && res.statusCode < 300) || req.accept?.includes(res.statusCode)) {
        const invalid = res.statusCode < 300 ? req.validate?.(res.statusCode, text) : undefined;
        if (!invalid) return { status: res.statusCode, body: text };
        throw new DeliveryFailed(`request to ${where} failed: ${mask(invalid)}`);
      }
      last = `${req.method === "GET" ? "GET " : ""}request to ${where} failed with status code ${res.statusCode}: ${mask(text.slice(0, 512))}`;
      if (!retryable(res.statusCode)) throw new DeliveryFailed(last);
      const after = Number(res.headers["retry-after"]);
      if ((res.statusCode === 429 || res.statusCode === 503) && after > 0) waitMs = after * 1000;
    } catch (err) {
      if (err instanceof DeliveryFailed) throw err;
      if (signal.aborted) break;
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      last = `request to ${where} failed: ${mask(cause ?? (err as Error).message)}`;
    }
    if (attempt === max) break;
    try {
      await sleep(waitMs, signal);
    } catch {
      break;
    }
  }
  if (signal.aborted)
    throw new DeliveryFailed(`${last || `request to ${where}`} (gave up after the timeout of ${o.timeoutMs / 1000}s)`);
  throw new DeliveryFailed(`${last} (giving up after ${max + 1} attempt(s))`);
}

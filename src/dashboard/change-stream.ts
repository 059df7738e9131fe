// Server-sent events fed by the watches: a change anywhere in the fleet reaches every open page at most
// once per 250 ms (a burst of status writes is one message), so a page re-reads its view once per burst
// instead of polling. A comment every 20 s keeps idle connections (and proxies) open.
// At most `maxClients` streams are open at once (the next is refused, 503), and a client that does not
// read is never written to while its socket's buffer is full: the kinds it missed are merged into one
// message sent when the socket drains, and a client stuck longer than STUCK_MS is closed — so a slow
// or stalled reader costs one small set of kinds, never a growing buffer (decision 0032).
import type { ServerResponse } from "node:http";

const COALESCE_MS = 250;
const KEEPALIVE_MS = 20_000;
export const MAX_STREAMS = 32;
const STUCK_MS = 60_000;

/** The part of FleetCache a stream needs (notification-changes.ts is one too: kind "Notification"). */
export interface ChangeSource {
  onChange(fn: (c: { kind: string }) => void): () => void;
}

interface Client {
  /** Kinds changed while the socket could not take more; sent together once it drains. */
  missed: Set<string>;
  blockedSince?: number;
}

const message = (kinds: Iterable<string>) => `event: change\ndata: ${JSON.stringify({ kinds: [...kinds].sort() })}\n\n`;

export class ChangeStream {
  private readonly clients = new Map<ServerResponse, Client>();
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private readonly keepalive: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    source: ChangeSource,
    private readonly maxClients = MAX_STREAMS,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = source.onChange((c) => this.changed(c));
    this.keepalive = setInterval(() => this.send(": keepalive\n\n"), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** Starts the stream on `res`; false (nothing written) when maxClients streams are already open. */
  open(res: ServerResponse): boolean {
    if (this.clients.size >= this.maxClients) return false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    const client: Client = { missed: new Set() };
    this.clients.set(res, client);
    res.on("close", () => this.clients.delete(res));
    res.on("drain", () => {
      client.blockedSince = undefined;
      if (client.missed.size === 0) return;
      const kinds = client.missed;
      client.missed = new Set();
      this.write(res, client, message(kinds), kinds);
    });
    return true;
  }

  get size(): number {
    return this.clients.size;
  }

  private changed(c: { kind: string }): void {
    this.pending.add(c.kind);
    this.timer ??= setTimeout(() => {
      const kinds = this.pending;
      this.pending = new Set();
      this.timer = undefined;
      this.send(message(kinds), kinds);
    }, COALESCE_MS);
  }

  private send(text: string, kinds?: Set<string>): void {
    for (const [res, client] of this.clients) this.write(res, client, text, kinds);
  }

  /** Writes unless the socket is still full; then remembers the kinds (a keepalive is simply dropped). */
  private write(res: ServerResponse, client: Client, text: string, kinds?: Set<string>): void {
    if (res.writableNeedDrain) {
      for (const k of kinds ?? []) client.missed.add(k);
      client.blockedSince ??= this.now();
      if (this.now() - client.blockedSince > STUCK_MS) {
        this.clients.delete(res);
        res.destroy();
      }
      return;
    }
    if (!res.write(text)) client.blockedSince = this.now();
  }

  close(): void {
    this.unsubscribe();
    clearInterval(this.keepalive);
    if (this.timer) clearTimeout(this.timer);
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
  }
}

// Server-sent events fed by the watches: a change anywhere in the fleet reaches every open page at most
// once per 250 ms (a burst of status writes is one message), so a page re-reads its view once per burst
// instead of polling. A comment every 20 s keeps idle connections (and proxies) open.
import type { ServerResponse } from "node:http";
import type { Change, FleetCache } from "../fleet/status/fleet-cache.js";

const COALESCE_MS = 250;
const KEEPALIVE_MS = 20_000;

export class ChangeStream {
  private readonly clients = new Set<ServerResponse>();
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private readonly keepalive: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(cache: FleetCache) {
    this.unsubscribe = cache.onChange((c) => this.changed(c));
    this.keepalive = setInterval(() => this.write(": keepalive\n\n"), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  open(res: ServerResponse): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  get size(): number {
    return this.clients.size;
  }

  private changed(c: Change): void {
    this.pending.add(c.kind);
    this.timer ??= setTimeout(() => {
      const kinds = [...this.pending].sort();
      this.pending = new Set();
      this.timer = undefined;
      this.write(`event: change\ndata: ${JSON.stringify({ kinds })}\n\n`);
    }, COALESCE_MS);
  }

  private write(text: string): void {
    for (const res of this.clients) res.write(text);
  }

  close(): void {
    this.unsubscribe();
    clearInterval(this.keepalive);
    if (this.timer) clearTimeout(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

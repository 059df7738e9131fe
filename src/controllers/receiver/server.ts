// The webhook receiver's HTTP server (Flux: notification-controller's --receiver-addr, :9292). Only
// paths under /hook/ are served, with any method, as Flux's mux does; everything else is 404. Flux's
// limits (internal/server/limits.go): a body over 3 MiB is 413 without being read further, headers
// are capped at 256 KiB and must arrive within 10 s, a whole request within 30 s.
// Where flotilla differs (decision 0032): the Receiver is looked up before the body is read, so a
// request for a path no Receiver has is 404 without a byte of its body read (Flux reads up to 3 MiB
// first); a Content-Length over 3 MiB is 413 unread; and connections and requests in flight are capped
// (connection-limits.ts). A refusal before the body is read closes the connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RECEIVER_WEBHOOK_PATH } from "../../api/notification/receiver.js";
import { capConnections, InFlight, RECEIVER_LIMITS, type ReceiverLimits } from "./connection-limits.js";
import { handleHook, type HandlerOptions } from "./handler.js";

export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
const MAX_HEADER_BYTES = 256 * 1024;
const READ_HEADER_TIMEOUT_MS = 10_000;
const READ_TIMEOUT_MS = 30_000;
// How often Node looks for connections past those timeouts (its default, 30 s, lets a slow sender
// keep a socket up to 40 s instead of 10).
const TIMEOUT_CHECK_MS = 1_000;

export interface ReceiverServerOptions extends HandlerOptions {
  host: string;
  port: number;
  /** The caps (default RECEIVER_LIMITS); tests lower them. */
  limits?: ReceiverLimits;
}

export interface RunningReceiverServer {
  /** http://host:port, as bound (the port chosen when 0 was asked for). */
  url: string;
  /** Sockets closed by the connection caps so far. */
  refusedConnections(): number;
  close(): Promise<void>;
}

/** The body, or "too-large" once more than MAX_REQUEST_BYTES arrived (the rest is not read). */
function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.pause();
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** A body was announced and not read whole: answering must close the connection, not read on. */
const unread = (req: IncomingMessage) =>
  !req.complete && (req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0);

/** Flux writes the status alone. With `connection: close` Node destroys the socket once the status is
 * written instead of reading (dumping) the rest of the body to keep the connection alive. */
function reply(req: IncomingMessage, res: ServerResponse, code: number, extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(code, { "content-length": "0", ...(unread(req) ? { connection: "close" } : {}), ...extra }).end();
}

export function startReceiverServer(o: ReceiverServerOptions): Promise<RunningReceiverServer> {
  const limits = o.limits ?? RECEIVER_LIMITS;
  const inFlight = new InFlight(limits.requestsInFlight);
  const server: Server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: READ_HEADER_TIMEOUT_MS,
      requestTimeout: READ_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    (req, res) => {
      const url = req.url ?? "/";
      if (!url.startsWith(RECEIVER_WEBHOOK_PATH)) return reply(req, res, 404);
      const receiver = o.cache.byPath(url);
      if (!receiver) return reply(req, res, 404);
      if (Number(req.headers["content-length"] ?? 0) > MAX_REQUEST_BYTES) return reply(req, res, 413);
      const release = inFlight.enter();
      if (!release) return reply(req, res, 503, { "retry-after": "1" });
      readBody(req)
        .then((body) => (body === "too-large" ? 413 : handleHook(o, receiver, { url, headers: req.headers, body })))
        .then(
          (code) => reply(req, res, code),
          (err: unknown) => {
            o.log.error("webhook request failed", { error: (err as Error).message });
            reply(req, res, err instanceof Error && /aborted|ECONNRESET/.test(err.message) ? 400 : 500);
          },
        )
        .finally(release);
    },
  );
  const caps = capConnections(server, limits);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(":") ? `[${address}]` : address;
      resolve({
        url: `http://${host}:${port}`,
        refusedConnections: caps.refused,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeIdleConnections();
          }),
      });
    });
  });
}

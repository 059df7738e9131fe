// The webhook receiver's HTTP server (Flux: notification-controller's --receiver-addr, :9292). Only
// paths under /hook/ are served, with any method, as Flux's mux does; everything else is 404. Flux's
// limits (internal/server/limits.go): a body over 3 MiB is 413 without being read further, headers
// are capped at 256 KiB and must arrive within 10 s, a whole request within 30 s.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RECEIVER_WEBHOOK_PATH } from "../../api/notification/receiver.js";
import { handleHook, type HandlerOptions } from "./handler.js";

export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
const MAX_HEADER_BYTES = 256 * 1024;
const READ_HEADER_TIMEOUT_MS = 10_000;
const READ_TIMEOUT_MS = 30_000;

export interface ReceiverServerOptions extends HandlerOptions {
  host: string;
  port: number;
}

export interface RunningReceiverServer {
  /** http://host:port, as bound (the port chosen when 0 was asked for). */
  url: string;
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

export function startReceiverServer(o: ReceiverServerOptions): Promise<RunningReceiverServer> {
  const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const reply = (code: number) => {
      if (res.headersSent) return;
      // Flux writes the status alone; a refused oversized body also closes the connection.
      res.writeHead(code, { "content-length": "0", ...(code === 413 ? { connection: "close" } : {}) }).end();
    };
    const url = req.url ?? "/";
    if (!url.startsWith(RECEIVER_WEBHOOK_PATH)) return reply(404);
    readBody(req)
      .then((body) => (body === "too-large" ? 413 : handleHook(o, { url, headers: req.headers, body })))
      .then(reply, (err: unknown) => {
        o.log.error("webhook request failed", { error: (err as Error).message });
        reply(err instanceof Error && /aborted|ECONNRESET/.test(err.message) ? 400 : 500);
      });
  });
  server.headersTimeout = READ_HEADER_TIMEOUT_MS;
  server.requestTimeout = READ_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(":") ? `[${address}]` : address;
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeIdleConnections();
          }),
      });
    });
  });
}

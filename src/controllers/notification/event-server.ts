// Flux's event endpoint (notification-controller's --events-addr): Flux controllers in a mixed
// installation POST their eventv1beta1.Event JSON to "/", and it goes to the same dispatcher as
// flotilla's own events. Flux's answers: 202 accepted (matched or not), 400 for a body that is not an
// event, 413 over 3 MiB, 429 for a duplicate inside the rate-limit interval; Flux's limits on headers
// (256 KiB, 10 s) and whole requests (30 s).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FluxEvent } from "../../runtime/flux-event.js";
import type { Logger } from "../../runtime/logger.js";
import type { NotificationDispatcher } from "./dispatcher.js";

const MAX_BODY = 3 * 1024 * 1024;

export interface RunningEventServer {
  url: string;
  close(): Promise<void>;
}

function isEvent(v: unknown): v is FluxEvent {
  const e = v as FluxEvent;
  return (
    !!e &&
    typeof e === "object" &&
    !!e.involvedObject &&
    typeof e.involvedObject === "object" &&
    typeof e.message === "string"
  );
}

export async function startEventServer(o: {
  host: string;
  port: number;
  dispatcher: NotificationDispatcher;
  log: Logger;
}): Promise<RunningEventServer> {
  const server: Server = createServer(
    { maxHeaderSize: 256 * 1024, headersTimeout: 10_000, requestTimeout: 30_000 },
    (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          tooLarge = true;
          res.writeHead(413, { Connection: "close" }).end();
          req.destroy();
        } else chunks.push(c);
      });
      req.on("end", () => {
        if (tooLarge) return;
        let event: unknown;
        try {
          event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          event = undefined;
        }
        if (!isEvent(event)) {
          o.log.error("decoding the request body failed", { remote: req.socket.remoteAddress });
          res.writeHead(400).end();
          return;
        }
        event.severity = event.severity === "error" ? "error" : "info";
        event.reportingController ??= "";
        const accepted = o.dispatcher.submit(event);
        res.writeHead(accepted || isNotification(event) ? 202 : 429).end();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  return {
    url: `http://${a.address.includes(":") ? `[${a.address}]` : a.address}:${a.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const isNotification = (e: FluxEvent) =>
  e.involvedObject.apiVersion?.startsWith("notification.toolkit.fluxcd.io/") ?? false;

// The endpoints every controller process serves: /healthz (alive), /readyz (caches synced), /metrics
// (Prometheus text). Bound to the address given (Flux: --health-addr :9440, --metrics-addr :8080).
import { createServer, type Server } from "node:http";
import type { Registry } from "./metrics.js";

export interface ProbesOptions {
  host: string;
  port: number;
  registry: Registry;
  ready: () => boolean;
}

export function startProbesServer(
  options: ProbesOptions,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") return void res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    if (path === "/readyz") {
      const ok = options.ready();
      return void res.writeHead(ok ? 200 : 503, { "content-type": "text/plain" }).end(ok ? "ok" : "not ready");
    }
    if (path === "/metrics")
      return void res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(options.registry.render());
    res.writeHead(404).end();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      resolve({
        server,
        port: typeof address === "object" && address ? address.port : options.port,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

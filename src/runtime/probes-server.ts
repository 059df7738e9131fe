// The endpoints every controller process serves: /healthz (alive), /readyz (caches synced), /metrics
// (Prometheus text). The health address serves all three (tests and `flotilla stats` read /metrics
// there); the metrics address (Flux: --metrics-addr :8080, the Deployment's http-prom port) only
// /metrics, so a NetworkPolicy can open scraping to other namespaces without opening the probes.
import { createServer, type Server } from "node:http";
import type { Registry } from "./metrics.js";

export interface ProbesOptions {
  host: string;
  port: number;
  registry: Registry;
  ready: () => boolean;
  /** Serve /metrics only (the --metrics-addr listener). */
  metricsOnly?: boolean;
}

export function startProbesServer(
  options: ProbesOptions,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (options.metricsOnly && path !== "/metrics") return void res.writeHead(404).end();
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

// The artifact server: serves the storage directory over HTTP, GET/HEAD only, never outside it.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Storage } from "./storage.js";

export function startArtifactServer(
  storage: Storage,
  host: string,
  port: number,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
    let full: string;
    try {
      full = storage.fullPath(decodeURIComponent((req.url ?? "/").split("?")[0]!.replace(/^\/+/, "")));
    } catch {
      return void res.writeHead(404).end();
    }
    if (!existsSync(full) || !statSync(full).isFile() || full.includes(".tmp-")) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/x-gzip", "content-length": statSync(full).size });
    if (req.method === "HEAD") return void res.end();
    createReadStream(full).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolve({ server, url: `http://${host}:${actual}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

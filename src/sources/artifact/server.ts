// The artifact server: serves stored artifacts over HTTP, GET/HEAD only. Only paths of an artifact's
// shape (`<kind>/<ns>/<name>/<file>`, no hidden segment, no temporary file) are served — never the
// unpacked-artifact cache or anything else under the storage root (issue 28). A client that goes
// away mid-download closes the file at once (pipeline), so aborted downloads leak no descriptors.
import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { pipeline } from "node:stream";
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
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/x-gzip", "content-length": st.size });
    if (req.method === "HEAD") return void res.end();
    pipeline(createReadStream(full), res, () => undefined); // errors end the response; the file is closed either way
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolve({
        server,
        url: `http://${host}:${actual}`,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}

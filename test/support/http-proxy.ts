// A real forward HTTP proxy on loopback for tests: absolute-URI requests (plain http) are forwarded,
// optionally behind Proxy-Authorization basic auth (407 otherwise). It only forwards to 127.0.0.1,
// so a test can never reach out. `requests` counts what passed through.
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HttpProxy {
  url: string;
  requests: { forwarded: number; rejected: number };
  close(): Promise<void>;
}

export async function startHttpProxy(opts: { auth?: { username: string; password: string } } = {}): Promise<HttpProxy> {
  const requests = { forwarded: 0, rejected: 0 };
  const authorized = (req: IncomingMessage) => {
    if (!opts.auth) return true;
    const [scheme, value] = (req.headers["proxy-authorization"] ?? "").split(" ");
    return (
      scheme?.toLowerCase() === "basic" &&
      Buffer.from(value ?? "", "base64").toString() === `${opts.auth.username}:${opts.auth.password}`
    );
  };
  const server: Server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      requests.rejected++;
      return void res.writeHead(400).end("absolute URI required\n");
    }
    if (!authorized(req)) {
      requests.rejected++;
      return void res.writeHead(407, { "Proxy-Authenticate": 'Basic realm="proxy"' }).end();
    }
    if (target.hostname !== "127.0.0.1" || target.protocol !== "http:") {
      requests.rejected++;
      return void res.writeHead(403).end("loopback only\n");
    }
    requests.forwarded++;
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.once("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

// `flotilla dashboard`: one web app for the whole fleet, served from this process. The data comes from
// watches on the management cluster (fleet-cache.ts), pages are JSON views of it, changes reach open
// pages as server-sent events, and actions run with the kubeconfig's identity. The page's own files are
// served from here (assets/): nothing is loaded from the internet. Given a token (auth.ts), every
// request must carry it; at most `maxStreams` event streams are open at once (change-stream.ts).
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Cluster } from "../kube/cluster.js";
import { ActionRefused, parseAction, perform } from "./actions.js";
import { appPage } from "./app-page.js";
import { DashboardAuth, refuseUnauthenticated } from "./auth.js";
import { ChangeStream, MAX_STREAMS } from "./change-stream.js";
import { clusterPage } from "./cluster-page.js";
import { FleetCache, WATCHED } from "../fleet/status/fleet-cache.js";
import { APP_KINDS, type AppKind } from "./actions.js";
import { fluxPage } from "./flux-page.js";
import { fleetPage } from "./fleet-page.js";
import { providersPage } from "./notifications.js";
import { bothSources, NotificationChanges } from "./notification-changes.js";
import { allowedHosts, readJson, refusal, SECURITY_HEADERS, sendJson } from "./http-guard.js";

export interface DashboardOptions {
  cluster: Cluster;
  address: string;
  port: number;
  readOnly: boolean;
  /** Only this namespace's objects (default: every namespace the identity may list). */
  namespace?: string;
  /** A bearer token every request must carry (required beyond loopback by `flotilla controller`). */
  token?: string;
  /** Most event streams open at once (default MAX_STREAMS). */
  maxStreams?: number;
  log?: (line: string) => void;
}

export interface Dashboard {
  url: string;
  close(): Promise<void>;
}

const ASSETS: Record<string, string> = {
  "/": "index.html",
  "/assets/app.js": "app.js",
  "/assets/html.js": "html.js",
  "/assets/views.js": "views.js",
  "/assets/notifications.js": "notifications.js",
  "/assets/operator.js": "operator.js",
  "/assets/style.css": "style.css",
  "/assets/favicon.svg": "favicon.svg",
};
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

/** The assets directory: beside this file in the sources, or the sources' from the compiled dist/. */
function assetsDir(): string {
  for (const rel of ["./assets/", "../../src/dashboard/assets/"]) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new Error("the dashboard's assets (src/dashboard/assets) are missing from this installation");
}

export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const dir = assetsDir();
  const cache = await FleetCache.start(o.cluster, o.namespace, o.log, WATCHED);
  const notifications = await NotificationChanges.start(o.cluster, o.namespace);
  const stream = new ChangeStream(bothSources(cache, notifications), o.maxStreams ?? MAX_STREAMS);
  const auth = o.token ? new DashboardAuth(o.token) : undefined;
  let hosts: Set<string> | "ip-literals" = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const refused = refusal(req, hosts);
    if (refused) return sendJson(res, 403, { error: refused });
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const q = (k: string) => url.searchParams.get(k) ?? "";
    if (auth && req.method === "GET" && url.pathname === "/" && url.searchParams.has("token"))
      return auth.login(res, q("token"));
    if (auth && !auth.allows(req)) return refuseUnauthenticated(res);
    if (req.method === "POST" && url.pathname === "/api/action") {
      try {
        const done = await perform(cache, o.readOnly, parseAction(await readJson(req)));
        o.log?.(`action: ${done}`);
        return sendJson(res, 200, { message: done });
      } catch (err) {
        const status = err instanceof ActionRefused ? err.status : 400;
        return sendJson(res, status, { error: (err as Error).message });
      }
    }
    if (req.method !== "GET") return sendJson(res, 405, { error: "not allowed" });
    const asset = ASSETS[url.pathname];
    if (asset) {
      res.writeHead(200, { "Content-Type": TYPES[asset.split(".").pop()!]!, "Cache-Control": "no-cache" });
      return res.end(readFileSync(`${dir}${asset}`));
    }
    switch (url.pathname) {
      case "/api/fleet":
        return sendJson(res, 200, { readOnly: o.readOnly, ...fleetPage(cache) });
      case "/api/cluster": {
        const page = await clusterPage(cache, q("key"), o.namespace);
        return page
          ? sendJson(res, 200, { readOnly: o.readOnly, ...page })
          : sendJson(res, 404, { error: `no cluster ${q("key")}` });
      }
      case "/api/app": {
        const kind = q("kind") as AppKind;
        if (!APP_KINDS.includes(kind)) return sendJson(res, 400, { error: `not an app kind: ${kind}` });
        const page = await appPage(cache, kind, q("namespace"), q("name"), o.namespace);
        return page
          ? sendJson(res, 200, { readOnly: o.readOnly, ...page })
          : sendJson(res, 404, { error: `${kind} ${q("namespace")}/${q("name")} not found` });
      }
      case "/api/flux": {
        const page = await fluxPage(cache, q("namespace"));
        return page
          ? sendJson(res, 200, { readOnly: o.readOnly, ...page })
          : sendJson(res, 404, { error: `no FluxInstance or FluxReport in namespace ${q("namespace")}` });
      }
      case "/api/notifications":
        return sendJson(res, 200, { readOnly: o.readOnly, providers: await providersPage(cache.client, o.namespace) });
      case "/api/stream":
        if (stream.open(res)) return;
        return sendJson(res, 503, {
          error: `${stream.size} event streams are open, the most this dashboard serves: close a dashboard tab`,
        });
      default:
        return sendJson(res, 404, { error: `no page ${url.pathname}` });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: (err as Error).message });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.address, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(o.address, port);
  const host = o.address.includes(":") ? `[${o.address}]` : o.address;
  return {
    url: `http://${host}:${port}/`,
    async close() {
      stream.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await Promise.all([cache.stop(), notifications.stop()]);
    },
  };
}

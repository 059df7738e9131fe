// What every response and every request is checked for. The dashboard acts with its kubeconfig's
// identity, so a page on another site must not be able to drive it: the Host must be the address it
// serves (no DNS rebinding), an action must come from its own origin as JSON with the X-Flotilla-Action
// header (a cross-site form can send neither), and pages may load nothing from elsewhere (CSP).
import type { IncomingMessage, ServerResponse } from "node:http";

export const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/**
 * The Host values a browser sends for this server: the bound address, and loopback names for a loopback
 * one. Bound to every interface (in a pod, reached through a Service IP or a port-forward), any IP literal or
 * localhost: never a DNS name, which a page elsewhere could rebind to this address and so pass as same-origin.
 */
export function allowedHosts(address: string, port: number): Set<string> | "ip-literals" {
  if (address === "0.0.0.0" || address === "::") return "ip-literals";
  const hosts = new Set([`${address.includes(":") ? `[${address}]` : address}:${port}`]);
  if (["127.0.0.1", "::1", "localhost"].includes(address))
    for (const h of ["127.0.0.1", "localhost", "[::1]"]) hosts.add(`${h}:${port}`);
  return hosts;
}

/** An IPv4 or bracketed IPv6 literal, or localhost, with an optional port. */
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|localhost)(:\d+)?$/;

export function refusal(req: IncomingMessage, hosts: Set<string> | "ip-literals"): string | undefined {
  const host = req.headers.host ?? "";
  if (hosts === "ip-literals" ? !IP_LITERAL.test(host) : !hosts.has(host))
    return `unexpected Host ${req.headers.host ?? "(none)"}: open the address flotilla printed`;
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  if (req.method !== "POST") return `method ${req.method} not allowed`;
  if (req.headers.origin !== `http://${req.headers.host}`)
    return "an action must come from the dashboard's own page (Origin)";
  if (req.headers["x-flotilla-action"] !== "1") return "an action needs the X-Flotilla-Action header";
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return "an action is a JSON body";
  return undefined;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

export async function readJson(req: IncomingMessage, limit = 16 * 1024): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new Error(`request body over ${limit} bytes`);
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

// The dashboard's bearer token. Served beyond loopback (a pod's every interface, a Service), whoever
// reaches the port would read the fleet — and with actions on, act — as the identity the dashboard runs
// as: for `flotilla controller --dashboard-addr` the controller's own. So a dashboard given a token
// answers 401 to any request that does not carry it: `Authorization: Bearer <token>` (scripts, curl), or
// the session cookie a browser gets by opening `/?token=<token>` once (EventSource cannot send headers).
// The cookie holds an HMAC of the token, not the token; comparisons take constant time.
import { createHmac, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";

export const SESSION_COOKIE = "flotilla-dashboard";

/** True for an address only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, "");
  if (a === "localhost" || a === "::1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? "")
    .split(";")
    .map((c) => c.trim().split("="))
    .find(([k]) => k === name)?.[1];

export class DashboardAuth {
  private readonly session: string;

  constructor(private readonly token: string) {
    this.session = createHmac("sha256", token).update("flotilla dashboard session").digest("hex");
  }

  /** Whether the request carries the token (header) or the session cookie. */
  allows(req: IncomingMessage): boolean {
    const header = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (header !== undefined) return same(header, this.token);
    const cookie = cookieOf(req, SESSION_COOKIE);
    return cookie !== undefined && same(cookie, this.session);
  }

  /** `GET /?token=<token>`: the session cookie set and the token taken out of the address bar. */
  login(res: ServerResponse, token: string): void {
    if (!same(token, this.token)) return refuseUnauthenticated(res);
    res.writeHead(303, {
      Location: "/",
      "Set-Cookie": `${SESSION_COOKIE}=${this.session}; Path=/; HttpOnly; SameSite=Strict`,
      "Cache-Control": "no-store",
    });
    res.end();
  }
}

export function refuseUnauthenticated(res: ServerResponse): void {
  res.writeHead(401, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "WWW-Authenticate": 'Bearer realm="flotilla-dashboard"',
  });
  res.end(
    JSON.stringify({
      error: "this dashboard needs its token: send Authorization: Bearer <token>, or open /?token=<token> once",
    }),
  );
}

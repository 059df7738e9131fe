import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { DashboardAuth, isLoopbackAddress, SESSION_COOKIE } from "./auth.js";

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const TOKEN = "s3cr3t-token-0123456789";

describe("the dashboard's token", () => {
  it("loopback is 127.0.0.0/8, ::1 and localhost; every interface and other addresses are not", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ["0.0.0.0", "::", "", "10.0.0.1", "127.example.com"]) expect(isLoopbackAddress(a)).toBe(false);
  });

  it("is taken as a bearer header or as the session cookie /?token= sets, never anything else", () => {
    const auth = new DashboardAuth(TOKEN);
    expect(auth.allows(req({ authorization: `Bearer ${TOKEN}` }))).toBe(true);
    expect(auth.allows(req({ authorization: "Bearer wrong" }))).toBe(false);
    expect(auth.allows(req({}))).toBe(false);
    let cookie = "";
    let status = 0;
    const res = {
      writeHead: (code: number, headers: Record<string, string>) => (
        (status = code),
        (cookie = headers["Set-Cookie"]!)
      ),
      end: () => {},
    } as unknown as ServerResponse;
    auth.login(res, TOKEN);
    expect(status).toBe(303);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict$`));
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(";")[0]!;
    expect(auth.allows(req({ cookie: `other=1; ${session}` }))).toBe(true);
    expect(auth.allows(req({ cookie: `${SESSION_COOKIE}=${"0".repeat(64)}` }))).toBe(false);
    auth.login(res, "wrong");
    expect(status).toBe(401);
  });
});

import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { allowedHosts, refusal } from "./http-guard.js";

const req = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as IncomingMessage;
const action = (over: Record<string, string> = {}) =>
  req("POST", {
    host: "127.0.0.1:9333",
    origin: "http://127.0.0.1:9333",
    "x-flotilla-action": "1",
    "content-type": "application/json",
    ...over,
  });

describe("the dashboard's request guard", () => {
  const hosts = allowedHosts("127.0.0.1", 9333);

  it("serves its own loopback names, and refuses any other Host (DNS rebinding)", () => {
    for (const host of ["127.0.0.1:9333", "localhost:9333", "[::1]:9333"])
      expect(refusal(req("GET", { host }), hosts)).toBeUndefined();
    expect(refusal(req("GET", { host: "attacker.example:9333" }), hosts)).toMatch(/unexpected Host/);
    expect(refusal(req("GET", { host: "127.0.0.1:80" }), hosts)).toMatch(/unexpected Host/);
  });

  it("takes an action only from its own page: same Origin, the action header, a JSON body", () => {
    expect(refusal(action(), hosts)).toBeUndefined();
    expect(refusal(action({ origin: "http://attacker.example" }), hosts)).toMatch(/Origin/);
    expect(refusal(action({ "x-flotilla-action": "" }), hosts)).toMatch(/X-Flotilla-Action/);
    expect(refusal(action({ "content-type": "application/x-www-form-urlencoded" }), hosts)).toMatch(/JSON/);
    expect(refusal(req("DELETE", { host: "127.0.0.1:9333" }), hosts)).toMatch(/not allowed/);
  });

  it("bound to every interface, accepts IP literals and localhost only (a DNS name could be rebound), and still checks an action's Origin", () => {
    const any = allowedHosts("0.0.0.0", 9333);
    for (const host of ["10.96.0.12:9333", "[fd00::1]:9333", "localhost:9333"])
      expect(refusal(req("GET", { host }), any)).toBeUndefined();
    expect(refusal(req("GET", { host: "dashboard.attacker.example:9333" }), any)).toMatch(/unexpected Host/);
    expect(refusal(action({ host: "10.96.0.12:9333", origin: "http://attacker.example" }), any)).toMatch(/Origin/);
  });
});

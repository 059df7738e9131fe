// send() against real HTTP servers on loopback: what a provider address that refuses, never answers,
// or answers 4xx/5xx makes of a delivery — retried or not as go-retryablehttp does, bounded by the
// Provider's timeout, and never a path, query or Secret value in the error.
import { createServer, type Server } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DeliveryFailed } from "./errors.js";
import { send } from "./send.js";

const TOKEN = "s3cr3t-token-value";
const servers: { close(cb: () => void): void }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** A server answering each request with the next status of `statuses` (the last repeats); counts requests. */
async function answering(statuses: number[], body = "nope") {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    const status = statuses[Math.min(hits++, statuses.length - 1)]!;
    res.writeHead(status).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits: () => hits };
}

const fast = { timeoutMs: 10_000, retryWaitMinMs: 5, retryWaitMaxMs: 20, secrets: [TOKEN] };
const post = (url: string) => ({ url: `${url}/hooks/${TOKEN}?key=${TOKEN}`, body: "{}", headers: {} });

async function failure(p: Promise<void>): Promise<DeliveryFailed> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryFailed);
  return err as DeliveryFailed;
}

describe("a notification delivery", () => {
  it("to an address that refuses is retried 4 times, then fails naming the host only", async () => {
    const err = await failure(send(post("http://127.0.0.1:1"), fast));
    expect(err.message).toMatch(
      /^request to http:\/\/127\.0\.0\.1:1 failed: .*ECONNREFUSED.* \(giving up after 5 attempt\(s\)\)$/,
    );
    expect(err.message).not.toContain(TOKEN);
  });

  it("to an address that never answers gives up at the Provider's timeout", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent = createTcpServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    servers.push({ close: (cb) => (sockets.forEach((s) => s.destroy()), silent.close(cb)) });
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const started = Date.now();
    const err = await failure(send(post(url), { ...fast, timeoutMs: 500 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.message).toBe(`request to ${url} (gave up after the timeout of 0.5s)`);
  });

  it("answered 4xx fails at once, with the status and the body, the Secret value masked", async () => {
    const server = await answering([400], `bad token ${TOKEN}`);
    const err = await failure(send(post(server.url), fast));
    expect(server.hits()).toBe(1);
    expect(err.message).toBe(`request to ${server.url} failed with status code 400: bad token *****`);
  });

  it("answered 5xx is retried (501 is not), and a later 2xx delivers", async () => {
    const flaky = await answering([503, 500, 200]);
    await send(post(flaky.url), fast);
    expect(flaky.hits()).toBe(3);
    const down = await answering([502]);
    const err = await failure(send(post(down.url), fast));
    expect(down.hits()).toBe(5);
    expect(err.message).toBe(`request to ${down.url} failed with status code 502: nope (giving up after 5 attempt(s))`);
    const unimplemented = await answering([501]);
    await failure(send(post(unimplemented.url), fast));
    expect(unimplemented.hits()).toBe(1);
  });
});

// The receiver server's caps with a real socket per sender: what a hostile sender can hold of it.
// Senders on other loopback addresses (127.0.0.2, …) stand for other hosts.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../../api/notification/receiver.js";
import type { Cluster } from "../../kube/cluster.js";
import type { Informer } from "../../kube/informer.js";
import type { EventRecorder } from "../../runtime/events.js";
import { createLogger } from "../../runtime/logger.js";
import { crossNamespacePolicy } from "./cross-namespace.js";
import { ReceiverCache } from "../kit/receiver-cache.js";
import { MAX_REQUEST_BYTES, type RunningReceiverServer, startReceiverServer } from "./server.js";

const KNOWN = "/hook/known";
// Not Ready: a request that gets as far as the handler is 503 there (no cluster needed).
const receiver = { metadata: { name: "r", namespace: "ns" }, spec: { type: "generic", resources: [] } } as unknown;
const cache = new ReceiverCache();
cache.attach({
  byIndex: (_: string, path: string) => (path === KNOWN ? [receiver as Receiver] : []),
} as unknown as Informer);

let server: RunningReceiverServer;
let port: number;
beforeAll(async () => {
  server = await startReceiverServer({
    host: "127.0.0.1",
    port: 0,
    cache,
    cluster: {} as Cluster,
    events: {} as EventRecorder,
    log: createLogger({ write: () => {} }),
    crossNamespace: crossNamespacePolicy({}),
    limits: { connections: 6, connectionsPerAddress: 2, requestsInFlight: 1 },
  });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

interface Sent {
  socket: Socket;
  /** Everything answered, once the server closed the socket or `ms` passed. */
  answer(ms?: number): Promise<string>;
  /** Whether the server closed the socket within `ms`. */
  closed(ms: number): Promise<boolean>;
}

/** Opens a socket from `from` and writes `text` (a request, possibly unfinished). */
function send(text: string, from = "127.0.0.1"): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: from });
    let data = "";
    let ended = false;
    socket.on("data", (d: Buffer) => (data += d.toString()));
    socket.on("error", () => {});
    const done = new Promise<void>((r) => socket.once("close", () => ((ended = true), r())));
    const within = (ms: number) => Promise.race([done, new Promise((r) => setTimeout(r, ms))]);
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.write(text);
      resolve({
        socket,
        answer: async (ms = 5_000) => {
          await Promise.race([within(ms), new Promise<void>((r) => socket.once("data", () => setTimeout(r, 50)))]);
          return data;
        },
        closed: async (ms) => (await within(ms), ended),
      });
    });
  });
}

const post = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("the receiver server's limits", () => {
  it("answers 404 to a 3 MiB request for a path no Receiver has before a byte of its body is sent, and closes", async () => {
    const started = performance.now();
    const s = await send(post(`/hook/${"0".repeat(64)}`, MAX_REQUEST_BYTES));
    const answer = await s.answer();
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/connection: close/i);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await s.closed(2_000)).toBe(true);
  });

  it("answers 413 to a Content-Length over 3 MiB for a known path without reading it", async () => {
    const s = await send(post(KNOWN, MAX_REQUEST_BYTES + 1));
    expect(await s.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(await s.closed(2_000)).toBe(true);
  });

  it("reads a known path's body within the limit and hands it on (503: this Receiver is not Ready)", async () => {
    const s = await send(post(KNOWN, 2) + "{}");
    expect(await s.answer()).toMatch(/^HTTP\/1\.1 503 /);
    s.socket.destroy();
  });

  it("closes a sender's connections past its per-address cap at once; another address is still answered", async () => {
    const held = [await send("POST /hook/x HTTP/1.1\r\n", "127.0.0.2"), await send("POST /hook/x", "127.0.0.2")];
    const extra = await send("POST /hook/x HTTP/1.1\r\n", "127.0.0.2");
    expect(await extra.closed(2_000)).toBe(true);
    expect(await extra.answer(0)).toBe("");
    for (const h of held) expect(await h.closed(100)).toBe(false);
    const other = await send(post(`/hook/${"0".repeat(64)}`, 0), "127.0.0.3");
    expect(await other.answer()).toMatch(/^HTTP\/1\.1 404 /);
    for (const s of [...held, other]) s.socket.destroy();
  });

  it("closes connections past the server's cap, whichever address they come from", async () => {
    const held: Sent[] = [];
    for (const from of ["127.0.0.4", "127.0.0.5", "127.0.0.6"])
      for (let i = 0; i < 2; i++) held.push(await send("GET /hook/x HTTP/1.1\r\n", from));
    const before = server.refusedConnections();
    const extra = await send("GET /hook/x HTTP/1.1\r\n", "127.0.0.7");
    expect(await extra.closed(2_000)).toBe(true);
    expect(server.refusedConnections()).toBe(before + 1);
    for (const s of held) s.socket.destroy();
  });

  it("answers 503 unread while the requests in flight are at their cap", async () => {
    const slow = await send(post(KNOWN, 10) + "{");
    await new Promise((r) => setTimeout(r, 200));
    const next = await send(post(KNOWN, 2) + "{}", "127.0.0.8");
    const answer = await next.answer();
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/retry-after: 1/i);
    slow.socket.destroy();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cluster } from "../../kube/cluster.js";
import type { EventRecorder } from "../../runtime/events.js";
import { createLogger } from "../../runtime/logger.js";
import { ReceiverCache } from "./receiver-cache.js";
import { MAX_REQUEST_BYTES, type RunningReceiverServer, startReceiverServer } from "./server.js";

// The server's own rules, before any Receiver is looked at: no cluster is needed (an empty cache).
let server: RunningReceiverServer;
beforeAll(async () => {
  server = await startReceiverServer({
    host: "127.0.0.1",
    port: 0,
    cache: new ReceiverCache(),
    cluster: {} as Cluster,
    events: {} as EventRecorder,
    log: createLogger({ write: () => {} }),
    noCrossNamespaceRefs: false,
  });
});
afterAll(() => server.close());

describe("the webhook receiver server", () => {
  it("binds the port asked for (0: a free one) and says where", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers 404 with an empty body outside /hook/ and for a path no Receiver has, whatever the method", async () => {
    for (const [method, path] of [
      ["POST", "/"],
      ["GET", "/healthz"],
      ["POST", `/hook/${"a".repeat(64)}`],
      ["GET", `/hook/${"a".repeat(64)}`],
    ] as const) {
      const res = await fetch(server.url + path, { method, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("");
    }
  });

  it("refuses a body over 3 MiB with 413, before looking the path up", async () => {
    const res = await fetch(`${server.url}/hook/x`, { method: "POST", body: Buffer.alloc(MAX_REQUEST_BYTES + 1, 97) });
    expect(res.status).toBe(413);
    const atLimit = await fetch(`${server.url}/hook/x`, { method: "POST", body: Buffer.alloc(MAX_REQUEST_BYTES, 97) });
    expect(atLimit.status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cluster } from "../../kube/cluster.js";
import type { EventRecorder } from "../../runtime/events.js";
import { createLogger } from "../../runtime/logger.js";
import { crossNamespacePolicy } from "./cross-namespace.js";
import { ReceiverCache } from "../kit/receiver-cache.js";
import { type RunningReceiverServer, startReceiverServer } from "./server.js";

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
    crossNamespace: crossNamespacePolicy({}),
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
});

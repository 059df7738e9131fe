import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { eventForwarder, forwardUrlOf } from "./event-forwarder.js";
import { fluxEventOf } from "./flux-event.js";
import { createLogger } from "./logger.js";

const log = createLogger({ level: "error", write: () => undefined });
const obj = {
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { name: "apps", namespace: "team" },
};
let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A loopback endpoint answering each POST with the next status of `answers` (the last repeats). */
async function endpoint(answers: number[]) {
  const bodies: string[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString());
      res.writeHead(answers[Math.min(bodies.length - 1, answers.length - 1)]!).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, bodies };
}

describe("a shard's events posted to the main process's event endpoint (Flux's event recorder)", () => {
  it("posts Flux's event payload as JSON", async () => {
    const at = await endpoint([202]);
    const f = eventForwarder({ url: at.url, log });
    f.sink(fluxEventOf(obj, "Warning", "BuildFailed", "boom", {}, "pod-1"), obj);
    await f.idle();
    expect(at.bodies).toHaveLength(1);
    expect(JSON.parse(at.bodies[0]!)).toMatchObject({
      involvedObject: { kind: "Kustomization", name: "apps", namespace: "team" },
      severity: "error",
      reason: "BuildFailed",
      message: "boom",
    });
    expect(f.stats).toEqual({ posted: 1, failed: 0, dropped: 0 });
  });

  it("retries a 5xx and stops at a 429 (a duplicate), as Flux's client does", async () => {
    const retried = await endpoint([503, 503, 202]);
    const f = eventForwarder({ url: retried.url, log, backoffMs: 10 });
    f.sink(fluxEventOf(obj, "Normal", "ReconciliationSucceeded", "ok", {}, "pod-1"), obj);
    await f.idle();
    expect(retried.bodies).toHaveLength(3);
    expect(f.stats.posted).toBe(1);
    server!.close();
    const duplicate = await endpoint([429]);
    const g = eventForwarder({ url: duplicate.url, log, backoffMs: 10 });
    g.sink(fluxEventOf(obj, "Normal", "ReconciliationSucceeded", "ok", {}, "pod-1"), obj);
    await g.idle();
    expect(duplicate.bodies).toHaveLength(1);
    expect(g.stats).toEqual({ posted: 0, failed: 0, dropped: 0 });
  });

  it("gives up after the retries on an endpoint that never answers well, counting the failure", async () => {
    const down = await endpoint([500]);
    const f = eventForwarder({ url: down.url, log, backoffMs: 5, retries: 2 });
    f.sink(fluxEventOf(obj, "Normal", "Progressing", "x", {}, "pod-1"), obj);
    await f.idle();
    expect(down.bodies).toHaveLength(3);
    expect(f.stats.failed).toBe(1);
  });

  it("takes a URL as a Flux controller's --events-addr, a bind address as notification-controller's", () => {
    expect(forwardUrlOf("http://notification-controller.flux-system.svc.cluster.local./")).toBeDefined();
    expect(forwardUrlOf(":9091")).toBeUndefined();
    expect(forwardUrlOf("127.0.0.1:0")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { closeAllConnections, KubeClient } from "./client.js";
import { ClusterPool, fingerprintOf } from "./cluster-pool.js";
import type { ClusterEndpoint } from "./kubeconfig.js";

const endpoint = (over: Partial<ClusterEndpoint> = {}): ClusterEndpoint => ({
  name: "tenant1",
  server: "https://127.0.0.1:6443",
  caPem: "CA",
  certPem: "CERT-1",
  keyPem: "KEY-1",
  ...over,
});

function poolAt(start = 0) {
  const clock = { now: start };
  const pool = new ClusterPool({ idleTtlMs: 1000, sweepIntervalMs: 0, now: () => clock.now });
  return { pool, clock };
}

describe("cluster pool keys", () => {
  it("share one entry per cluster+credential, whatever the kubeconfig calls the user or context", () => {
    const { pool } = poolAt();
    const a = pool.acquire(endpoint());
    expect(pool.acquire(endpoint({ name: "another-context" }))).toBe(a);
    expect(pool.acquire(endpoint({ certPem: "CERT-2", keyPem: "KEY-2" }))).not.toBe(a);
    expect(pool.acquire(endpoint({ server: "https://127.0.0.1:7443" }))).not.toBe(a);
    expect(pool.acquire(endpoint({ caPem: "CA-2" }))).not.toBe(a);
    expect(pool.acquire(endpoint({ certPem: undefined, keyPem: undefined, token: "t" }))).not.toBe(a);
    expect(pool.stats().entries).toHaveLength(5);
  });

  it("tell exec configurations and token files apart", () => {
    const exec = { command: "get-token", args: ["--cluster", "a"] };
    expect(fingerprintOf(endpoint({ exec }))).not.toBe(
      fingerprintOf(endpoint({ exec: { ...exec, args: ["--cluster", "b"] } })),
    );
    expect(fingerprintOf(endpoint({ tokenFile: "/a" }))).not.toBe(fingerprintOf(endpoint({ tokenFile: "/b" })));
  });
});

describe("a kubeconfig read again under the same name", () => {
  it("closes the entry of the old credential once nothing else names it", async () => {
    const { pool } = poolAt();
    const old = pool.claim("secret ns/kc", endpoint());
    expect(pool.claim("secret ns/kc", endpoint())).toBe(old);
    const fresh = pool.claim("secret ns/kc", endpoint({ certPem: "CERT-2", keyPem: "KEY-2" }));
    expect(fresh).not.toBe(old);
    expect(old.closed).toBe(true);
    expect(pool.stats().closed.replaced).toBe(1);
    expect(pool.stats().entries.map((e) => [e.fingerprint, e.sources])).toEqual([
      [fresh.fingerprint, ["secret ns/kc"]],
    ]);
  });

  it("tells who asked (a wait's watches) when the old entry closes, once, and at once if already closed", () => {
    const { pool } = poolAt();
    const old = pool.claim("secret ns/kc", endpoint());
    const told: string[] = [];
    old.onClose(() => told.push("watches"));
    pool.claim("secret ns/kc", endpoint({ certPem: "CERT-2", keyPem: "KEY-2" }));
    expect(told).toEqual(["watches"]);
    old.onClose(() => told.push("late"));
    expect(told).toEqual(["watches", "late"]);
  });

  it("keeps the old entry while another name still points at it", () => {
    const { pool } = poolAt();
    const shared = pool.claim("secret a/kc", endpoint());
    pool.claim("secret b/kc", endpoint());
    pool.claim("secret a/kc", endpoint({ certPem: "CERT-2", keyPem: "KEY-2" }));
    expect(shared.closed).toBe(false);
    expect(shared.sources).toEqual(new Set(["secret b/kc"]));
  });

  it("lets a request already running on the old entry finish before its connection goes", () => {
    const { pool } = poolAt();
    const old = pool.claim("secret ns/kc", endpoint());
    old.begin();
    pool.claim("secret ns/kc", endpoint({ certPem: "CERT-2", keyPem: "KEY-2" }));
    expect(old.closed).toBe(true);
    old.dispatcher(); // the running request still gets its connection
    expect(pool.connectionsClosed).toBe(0);
    old.end();
    expect(pool.connectionsClosed).toBe(1);
  });
});

describe("idle entries", () => {
  it("are closed after the idle TTL, unless a request or watch is running on them", async () => {
    const { pool, clock } = poolAt();
    const idle = pool.acquire(endpoint());
    const watching = pool.acquire(endpoint({ token: "watcher" }));
    watching.begin();
    clock.now = 999;
    await pool.sweep();
    expect(idle.closed).toBe(false);
    clock.now = 1000;
    await pool.sweep();
    expect(idle.closed).toBe(true);
    expect(watching.closed).toBe(false);
    expect(pool.stats()).toMatchObject({ closed: { idle: 1 }, entries: [{ fingerprint: watching.fingerprint }] });
  });

  it("a name's claim goes with its closed entry; claiming again opens a new one", async () => {
    const { pool, clock } = poolAt();
    const first = pool.claim("secret ns/kc", endpoint());
    clock.now = 5000;
    await pool.sweep();
    const again = pool.claim("secret ns/kc", endpoint());
    expect(again).not.toBe(first);
    expect(pool.stats().closed).toEqual({ replaced: 0, idle: 1, shutdown: 0 });
  });
});

describe("clients of a closed entry", () => {
  it("take the open entry of the same cluster+credential for their next request", async () => {
    const client = new KubeClient(endpoint({ server: "https://127.0.0.1:1", name: "pool-test" }));
    const first = client.connection;
    expect(client.connection).toBe(first);
    expect(client.as({ user: "someone" }).connection).toBe(first);
    await closeAllConnections();
    expect(first.closed).toBe(true);
    const next = client.connection;
    expect(next).not.toBe(first);
    expect(next.fingerprint).toBe(first.fingerprint);
  });
});

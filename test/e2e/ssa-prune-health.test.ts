// Prune, health and secrets with the resource manager on a real apiserver.
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { setTimeout as sleep } from "node:timers/promises";
import { changeHub } from "../../src/ssa/health/change-hub.js";
import {
  compileHealthExpressions,
  DryRunError,
  formatChangeSet,
  HealthCheckError,
  inventoryFromChangeSet,
  pruneStale,
  ResourceManager,
  ResourceManagerError,
  waitForSet,
} from "../../src/ssa/index.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, deployment } from "../support/objects.js";

const owner = { group: "kustomize.toolkit.fluxcd.io", name: "apps", namespace: "flux-system" };
const cluster = planeCluster("tenant2");
const manager = new ResourceManager(cluster, { fieldManager: "flotilla-test", owner });

describe("prune", () => {
  it("deletes exactly the stale objects we own and leaves an object with our name but without our labels", async () => {
    const ns = await testNamespace(cluster.client, "prune");
    const v1 = await manager.apply([configMap(ns, "keep"), configMap(ns, "stale"), configMap(ns, "taken-over")]);
    const previous = inventoryFromChangeSet(v1);
    // Someone else re-creates "taken-over" without our owner labels.
    await cluster.delete(configMap(ns, "taken-over"));
    await cluster.client.create(
      `/api/v1/namespaces/${ns}/configmaps`,
      configMap(ns, "taken-over", { owner: "someone-else" }),
    );

    const next = inventoryFromChangeSet(await manager.apply([configMap(ns, "keep")]));
    const result = await pruneStale(cluster, previous, next, { owner });
    expect(formatChangeSet(result.changeSet)).toBe(
      [`ConfigMap/${ns}/taken-over skipped`, `ConfigMap/${ns}/stale deleted`].join("\n"),
    );
    expect(result.failed).toEqual([]);
    expect(await cluster.get(configMap(ns, "stale"))).toBeUndefined();
    expect((await cluster.get(configMap(ns, "taken-over")))?.data).toEqual({ owner: "someone-else" });
    expect(await cluster.get(configMap(ns, "keep"))).toBeDefined();
  });

  it("honours prune: disabled on the live object", async () => {
    const ns = await testNamespace(cluster.client, "prune-disabled");
    const previous = inventoryFromChangeSet(await manager.apply([configMap(ns, "a"), configMap(ns, "protected")]));
    await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/protected`, "merge", {
      metadata: { annotations: { "kustomize.toolkit.fluxcd.io/prune": "disabled" } },
    });
    const next = inventoryFromChangeSet(await manager.apply([configMap(ns, "a")]));
    const result = await pruneStale(cluster, previous, next, { owner });
    expect(formatChangeSet(result.changeSet)).toBe(`ConfigMap/${ns}/protected skipped`);
    expect(await cluster.get(configMap(ns, "protected"))).toBeDefined();
  });

  it("refuses to prune everything because the new set came out empty", async () => {
    const ns = await testNamespace(cluster.client, "prune-empty");
    const previous = inventoryFromChangeSet(await manager.apply([configMap(ns, "a"), configMap(ns, "b")]));
    await expect(pruneStale(cluster, previous, { entries: [] }, { owner })).rejects.toThrow(
      "refusing to prune all 2 objects: the new set is empty",
    );
    expect(await cluster.get(configMap(ns, "a"))).toBeDefined();
    const allowed = await pruneStale(cluster, previous, { entries: [] }, { owner, allowEmptySet: true });
    expect(allowed.changeSet.map((e) => e.action)).toEqual(["deleted", "deleted"]);
  });
});

describe("health", () => {
  it("a Deployment becomes healthy on the kwok node", async () => {
    const ns = await testNamespace(cluster.client, "healthy");
    const web = deployment(ns, "web", "nginx:1.27", 2);
    await manager.apply([web]);
    await waitForSet(cluster, [web], { timeoutMs: 60_000, intervalMs: 500 });
  });

  it("a Deployment whose image cannot be pulled is reported not ready with the pods' reason at timeout", async () => {
    const ns = await testNamespace(cluster.client, "unpullable");
    const bad = deployment(ns, "bad", "registry.invalid/nope:1");
    const good = deployment(ns, "good", "nginx:1.27");
    await manager.apply([bad, good]);
    // The good one is given all the time it needs first, so only the bad one can time out below.
    await waitForSet(cluster, [good], { timeoutMs: 60_000, intervalMs: 500 });
    const err = await waitForSet(cluster, [bad, good], { timeoutMs: 8_000, intervalMs: 500 }).catch((e) => e);
    expect(err).toBeInstanceOf(HealthCheckError);
    expect(
      (err as HealthCheckError).notReady.map((n) => n.subject),
      (err as Error).message,
    ).toEqual([`Deployment/${ns}/bad`]);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^timeout waiting for: \\[Deployment/${ns}/bad status: 'InProgress': Available: 0/1; pod bad-[a-z0-9-]+: container main waiting: ImagePullBackOff \\(Back-off pulling image "registry.invalid/nope:1": no such host\\)\\]$`,
      ),
    );
  });
});

describe("health of Jobs removed by ttlSecondsAfterFinished (fluxcd/pkg/ssa JobsWithTTL)", () => {
  const job = (ns: string, name: string, ttl?: number): KubeObject => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace: ns },
    spec: {
      ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
      template: {
        spec: { restartPolicy: "Never", containers: [{ name: "main", image: "busybox:1.36", command: ["true"] }] },
      },
    },
  });

  it("counts a Job with a TTL that is gone as done, and one without a TTL that is gone as not found", async () => {
    const ns = await testNamespace(cluster.client, "jobttl");
    const withTtl = job(ns, "migrate", 0);
    const without = job(ns, "seed");
    await manager.apply([withTtl, without]);
    const ttl = new Set([`${ns}/migrate`]);
    // Removed as the TTL controller removes a finished Job (what the wait sees is the same: no Job).
    await cluster.delete(withTtl);
    await cluster.delete(without);
    await waitForSet(cluster, [withTtl], { timeoutMs: 30_000, intervalMs: 500, jobsWithTtl: ttl });
    const err = await waitForSet(cluster, [withTtl, without], {
      timeoutMs: 3_000,
      intervalMs: 500,
      jobsWithTtl: ttl,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HealthCheckError);
    expect((err as HealthCheckError).notReady.map((n) => `${n.subject} ${n.status}`)).toEqual([
      `Job/${ns}/seed NotFound`,
    ]);
  });
});

describe("secrets", () => {
  const secretValue = "hunter2-very-secret-value";
  const secret = (ns: string, extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "creds", namespace: ns },
    stringData: { password: secretValue },
    ...extra,
  });

  it("never puts Secret values in change sets or dry-run errors", async () => {
    const ns = await testNamespace(cluster.client, "secrets");
    const created = await manager.apply([secret(ns)]);
    expect(JSON.stringify(created)).not.toContain(secretValue);
    expect(JSON.stringify(created)).not.toContain(Buffer.from(secretValue).toString("base64"));
    // An invalid Secret next to it: the error names it but carries no value of the set.
    const err = await manager.apply([secret(ns, { type: "kubernetes.io/tls" })]).catch((e) => e);
    expect(err).toBeInstanceOf(ResourceManagerError);
    const text = `${(err as Error).message}\n${JSON.stringify((err as DryRunError).failures ?? [])}`;
    expect(text).toContain(`Secret/${ns}/creds`);
    expect(text).not.toContain(secretValue);
    expect(text).not.toContain(Buffer.from(secretValue).toString("base64"));
  });
});

describe("waits that read an object again when it changes (watchChanges, decision 0055)", () => {
  const gate = (ns: string, name: string, ready: string): KubeObject => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: ns },
    data: { ready },
  });
  // kstatus calls any ConfigMap Current; these expressions make one wait for data.ready.
  const expressions = compileHealthExpressions([
    { apiVersion: "v1", kind: "ConfigMap", current: "data.ready == 'yes'" },
  ]);

  it("ends when a watched object changes, long before its next scheduled read", async () => {
    const ns = await testNamespace(cluster.client, "watch-changes");
    await manager.apply([gate(ns, "gate", "no")]);
    const started = Date.now();
    // With a one-hour interval the scheduled reads come at 0.1, 0.3, 0.7, 1.5, 3.1, 6.3, 12.7 s, ...
    const waiting = waitForSet(cluster, [gate(ns, "gate", "no")], {
      timeoutMs: 120_000,
      intervalMs: 3_600_000,
      expressions,
      watchChanges: true,
    });
    let ended: number | undefined;
    void waiting.then(() => (ended = Date.now()));
    await sleep(7_000); // past the 6.3 s read: the next scheduled one is at 12.7 s
    expect(ended, "the wait must not end before the object is ready").toBeUndefined();
    await manager.apply([gate(ns, "gate", "yes")]);
    await waiting;
    expect(ended! - started, "ended by the watch's change notice, not by the 12.7 s read").toBeLessThan(12_500);
  });

  it("shares one watch per kind and namespace between waits, and still ends each by its own object", async () => {
    const ns = await testNamespace(cluster.client, "watch-shared");
    await manager.apply([gate(ns, "a", "no"), gate(ns, "b", "no")]);
    const options = { timeoutMs: 120_000, intervalMs: 3_600_000, expressions, watchChanges: true };
    const a = waitForSet(cluster, [gate(ns, "a", "no")], options);
    const b = waitForSet(cluster, [gate(ns, "b", "no")], options);
    let aDone = false;
    void a.then(() => (aDone = true));
    const mine = () =>
      changeHub(cluster)
        .watching()
        .filter((k) => k.endsWith(`/${ns}`));
    await eventually("the ConfigMap watch of the namespace", async () => mine().length > 0, 30_000, 50);
    expect(mine()).toEqual([`/v1/ConfigMap/${ns}`]);
    await manager.apply([gate(ns, "b", "yes")]);
    await b;
    expect(aDone, "b's change does not end a's wait").toBe(false);
    await manager.apply([gate(ns, "a", "yes")]);
    await a;
  });
});

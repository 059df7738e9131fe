// ReleaseRun's decisions without helm or an API server: helm's release storage (Secrets) in an
// in-memory client, and a fake helm that writes the record a real one would (or fails). What helm
// itself does to a cluster stays proven end to end (test/e2e/helmrelease-*.test.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { HelmRelease, HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import type { Cluster } from "../../kube/cluster.js";
import { InMemoryKube } from "../../kube/testing/in-memory-client.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { HelmRunner } from "./actions/run-action.js";
import { ReleaseRun } from "./release-run.js";
import { encodeRelease } from "./storage/codec.js";
import type { StoredRelease } from "./storage/release.js";
import { valuesDigest } from "./values/compose.js";

const NS = "apps";
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const VALUES = { replicas: 2 };

/** A chart archive with no crds/: an empty tarball, gzipped. */
function emptyChart(): string {
  const path = join(mkdtempSync(join(tmpdir(), "release-run-")), "web-1.0.0.tgz");
  writeFileSync(path, gzipSync(Buffer.alloc(1024)));
  return path;
}

const helmRelease = (spec: Partial<HelmReleaseSpec> = {}): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "web", namespace: NS, generation: 1 },
  spec: { interval: "1h", driftDetection: { mode: "disabled" }, ...spec } as HelmReleaseSpec,
  status: {},
});

/** Writes revision `version` of release "web" into helm's storage as helm does (over what was there). */
async function store(kube: InMemoryKube, version: number, status: string, manifest = "") {
  const release: StoredRelease = {
    name: "web",
    namespace: NS,
    version,
    info: { status, first_deployed: "2026-01-01T00:00:00Z", last_deployed: "2026-01-01T00:00:00Z" },
    chart: { metadata: { name: "web", version: "1.0.0" } },
    config: VALUES,
    manifest,
  };
  const name = `sh.helm.release.v1.web.v${version}`;
  await kube.client.delete(`${SECRETS}/${name}`).catch(() => {});
  await kube.client.create(SECRETS, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: NS, labels: { owner: "helm", name: "web", status, version: String(version) } },
    type: "helm.sh/release.v1",
    data: { release: encodeRelease(release) },
  });
}

/**
 * helm as far as storage goes: install and upgrade write the next revision, deployed or (when told
 * to fail) failed; uninstall marks the last one uninstalled.
 */
function fakeHelm(kube: InMemoryKube, fail: string[] = [], manifest = "") {
  const ran: string[] = [];
  const helm: HelmRunner = async (a) => {
    ran.push(a.command);
    const revisions = kube.list(SECRETS).length;
    const failed = fail.includes(a.command);
    if (a.command === "uninstall") await store(kube, revisions, "uninstalled");
    else await store(kube, revisions + 1, failed ? "failed" : "deployed", manifest);
    if (failed) throw new Error(`${a.command}: context deadline exceeded`);
  };
  return { helm, ran };
}

function run(kube: InMemoryKube, hr: HelmRelease, helm: HelmRunner, client = kube.client) {
  const events: string[] = [];
  const recorder = {
    record: async (_o: unknown, type: string, reason: string) => void events.push(`${type} ${reason}`),
  };
  const target = { client, discovery: {} } as unknown as Cluster;
  const chart = emptyChart();
  const input = {
    hr,
    target,
    release: "web",
    namespace: NS,
    chart: { path: chart, name: "web", version: "1.0.0", revision: "1.0.0", digest: "sha256:c", release: () => {} },
    values: { values: VALUES, digest: valuesDigest(VALUES) },
    progressing: async () => {},
  };
  return { run: new ReleaseRun(input, recorder as unknown as EventRecorder, helm), events };
}

describe("ReleaseRun", () => {
  it("installs a release storage does not hold, once, then finds it in sync: Ready by InstallSucceeded", async () => {
    const kube = new InMemoryKube();
    const { helm, ran } = fakeHelm(kube);
    const { run: r, events } = run(kube, helmRelease(), helm);
    const result = await r.run();
    expect(ran).toEqual(["install"]);
    expect(result.reason).toBe("InstallSucceeded");
    expect(result.status.history?.map((h) => [h.version, h.status])).toEqual([[1, "deployed"]]);
    expect(result.status.lastAttemptedReleaseAction).toBe("install");
    expect(result.conditions.find((c) => c.type === "Released")).toMatchObject({ status: "True" });
    expect(events).toEqual(["Normal InstallSucceeded"]);
  });

  it("does not check a release it has just installed for drift in the same reconcile: helm created its objects from that manifest", async () => {
    const kube = new InMemoryKube();
    const manifest = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: apps\ndata:\n  a: b\n";
    const { helm, ran } = fakeHelm(kube, [], manifest);
    // What the drift check would read of the release's objects: anything but helm's storage.
    const reads: string[] = [];
    const client = new Proxy(kube.client, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== "function") return value;
        return (path: string, ...rest: unknown[]) => {
          if (!path.startsWith(SECRETS)) reads.push(`${String(prop)} ${path}`);
          return (value as (...a: unknown[]) => unknown).call(target, path, ...rest);
        };
      },
    });
    const hr = helmRelease({ driftDetection: { mode: "enabled" } });
    const result = await run(kube, hr, helm, client).run.run();
    expect(ran).toEqual(["install"]);
    expect(result.reason).toBe("InstallSucceeded");
    expect(reads).toEqual([]);
  });

  it("a release in sync runs no helm at all", async () => {
    const kube = new InMemoryKube();
    const { helm, ran } = fakeHelm(kube);
    const first = await run(kube, helmRelease(), helm).run.run();
    const again = helmRelease();
    again.status = { ...first.status, conditions: first.conditions, observedGeneration: 1 };
    const { run: r, events } = run(kube, again, helm);
    const result = await r.run();
    expect(ran).toEqual(["install"]); // the first run's only
    expect(result.reason).toBe("InstallSucceeded");
    expect(events).toEqual([]);
    expect(kube.writes).toEqual([`POST ${SECRETS}/sh.helm.release.v1.web.v1`]);
  });

  it("a failed install without remediation retries is not tried again: stalled, the failure counted and named", async () => {
    const kube = new InMemoryKube();
    const { helm, ran } = fakeHelm(kube, ["install"]);
    const { run: r, events } = run(kube, helmRelease(), helm);
    const failure = await r.run().catch((err: unknown) => err as Error & { reason?: string; stalled?: boolean });
    expect(ran).toEqual(["install"]);
    expect(failure).toMatchObject({ reason: "InstallFailed", stalled: true });
    expect(failure.message).toContain("Helm install failed for release apps/web with chart web@1.0.0");
    expect(r.status).toMatchObject({ failures: 1, installFailures: 1 });
    expect(events).toEqual(["Warning InstallFailed"]);
  });

  it("a failed install with retries uninstalls it (remediation) and ends not Ready with the install's failure", async () => {
    const kube = new InMemoryKube();
    const { helm, ran } = fakeHelm(kube, ["install"]);
    const hr = helmRelease({ install: { remediation: { retries: 1 } } });
    const { run: r } = run(kube, hr, helm);
    const failure = await r.run().catch((err: unknown) => err as Error & { reason?: string });
    expect(ran).toEqual(["install", "uninstall"]);
    expect(failure).toMatchObject({ reason: "InstallFailed" });
    expect(r.status).toMatchObject({ failures: 1, installFailures: 1 });
    expect(
      kube.list<{ metadata: { labels: Record<string, string> } }>(SECRETS).map((s) => s.metadata.labels.status),
    ).toEqual(["uninstalled"]);
  });
});

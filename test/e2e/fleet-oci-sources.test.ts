// The fleet layer on OCI artifacts, with the real `flotilla controller` process (sharded to this file's
// namespace) and the real distribution registry: a FleetKustomization whose template reads an
// OCIRepository applies the artifact on both tenant planes, and its staged rollout holds the gated stage
// at the manifest digest it reached (a pinned OCIRepository with ref.digest) while the tag moves on; a
// FleetHelmRelease whose chart comes through `chartRef: {kind: OCIRepository}` installs it on both planes,
// and its staged rollout holds the gated plane at the chart digest it reached.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetHelmRelease } from "../../src/api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { pathOf } from "../../src/api/paths.js";
import type { OCIRepository } from "../../src/api/source/oci-repository.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { copyKubeconfig } from "../support/harness.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { CHARTS_PATH, pushChart } from "../support/oci-charts.js";
import { configMapYaml, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const SHARD = "flotilla.dev/shard";
const HELM_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";
const mgmt = planeCluster("management");
const tenants = { tenant1: "early", tenant2: "late" } as const;
const targetNs: Record<string, string> = {};
// One release namespace on both planes (a release's namespace is part of the template).
const RELEASE_NS = `fleet-oci-${process.pid}`;
let env: HelmReleaseEnv;
let reg: OciRegistry;
const shard = () => ({ [SHARD]: env.ns });
const fleetApi = "fleet.flotilla.dev/v1alpha1";
const fkPath = () => pathOf(SERVED_KINDS.FleetKustomization, env.ns, "web");
const fhrPath = () => pathOf(SERVED_KINDS.FleetHelmRelease, env.ns, "addon");
const ociPath = (name: string) => pathOf(SERVED_KINDS.OCIRepository, env.ns, name);

const pushWeb = (version: string) =>
  pushFiles({ host: reg.host, repository: "manifests/web" }, "stable", {
    "cm.yaml": configMapYaml("web-version", "${target_ns}", { version }),
  });

async function versionOn(tenant: string): Promise<string | undefined> {
  try {
    const cm = await planeCluster(tenant).client.get<{ data: { version: string } }>(
      `/api/v1/namespaces/${targetNs[tenant]}/configmaps/web-version`,
    );
    return cm.data.version;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

const stage = async (name: string) =>
  (await mgmt.client.get<FleetKustomization>(fkPath())).status?.rollout?.stages.find((s) => s.name === name);

async function approve(): Promise<void> {
  const r = await runCli(["approve", "fks", "web", "-n", env.ns, "--kubeconfig", plane("management").kubeconfig]);
  expect(r.code, r.stderr).toBe(0);
}

async function createOci(name: string, spec: Record<string, unknown>): Promise<void> {
  await mgmt.client.create(pathOf(SERVED_KINDS.OCIRepository, env.ns), {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "OCIRepository",
    metadata: { name, namespace: env.ns, labels: shard() },
    spec: { interval: "10m", insecure: true, ...spec },
  });
}

/** An OCIRepository for the chart `name` pushed by helm, and a FleetHelmRelease of it on every cluster (release `name`). */
async function createChartFleet(name: string, rollout?: Record<string, unknown>): Promise<void> {
  await createOci(`${name}-chart`, {
    url: `${reg.url}/${CHARTS_PATH}/${name}`,
    ref: { semver: ">=1.0.0" },
    layerSelector: { mediaType: HELM_LAYER, operation: "copy" },
  });
  await mgmt.client.create(pathOf(SERVED_KINDS.FleetHelmRelease, env.ns), {
    apiVersion: fleetApi,
    kind: "FleetHelmRelease",
    metadata: { name, namespace: env.ns, labels: shard() },
    spec: {
      clusterSelector: {},
      template: {
        metadata: { labels: shard() },
        spec: {
          interval: "10m",
          timeout: "60s",
          targetNamespace: RELEASE_NS,
          releaseName: name,
          install: { createNamespace: true },
          chartRef: { kind: "OCIRepository", name: `${name}-chart` },
        },
      },
      ...(rollout ? { rollout } : {}),
    },
  });
}

beforeAll(async () => {
  reg = await startOciRegistry();
  env = await startHelmReleaseEnv("fleetoci");
  for (const kind of [SERVED_KINDS.Cluster, SERVED_KINDS.FleetKustomization, SERVED_KINDS.FleetHelmRelease])
    await eventually(`${kind.kind} served`, () => mgmt.client.get(pathOf(kind, env.ns)).then(() => true), 60_000, 500);
  for (const [t, ring] of Object.entries(tenants)) {
    targetNs[t] = await testNamespace(planeCluster(t).client, "fleetoci");
    await copyKubeconfig(mgmt, t, env.ns);
    await mgmt.client.create(pathOf(SERVED_KINDS.Cluster, env.ns), {
      apiVersion: fleetApi,
      kind: "Cluster",
      metadata: { name: t, namespace: env.ns, labels: { ...shard(), ring } },
      spec: {
        kubeConfig: { secretRef: { name: `${t}-admin-kubeconfig`, key: "admin.conf" } },
        variables: { target_ns: targetNs[t]! },
        interval: "10s",
      },
    });
  }
}, 180_000);

afterAll(async () => {
  for (const p of [fkPath(), fhrPath()]) await mgmt.client.delete(p).catch(() => {});
  await eventually(
    "the children gone",
    async () =>
      (await mgmt.client.get<{ items: unknown[] }>(pathOf(SERVED_KINDS.HelmRelease, env.ns))).items.length === 0,
    120_000,
  ).catch(() => {});
  for (const t of Object.keys(tenants))
    await planeCluster(t)
      .client.delete(`/api/v1/namespaces/${RELEASE_NS}`)
      .catch(() => {});
  await env?.stop();
  await reg?.stop();
}, 180_000);

describe("the fleet layer on OCI artifacts", () => {
  it("a FleetKustomization reading an OCIRepository stages it and holds the gated plane at the digest it reached", async () => {
    const d1 = await pushWeb("1");
    await createOci("web", { url: `${reg.url}/manifests/web`, ref: { tag: "stable" } });
    await mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, env.ns), {
      apiVersion: fleetApi,
      kind: "FleetKustomization",
      metadata: { name: "web", namespace: env.ns, labels: shard() },
      spec: {
        clusterSelector: {},
        template: {
          metadata: { labels: shard() },
          spec: { sourceRef: { kind: "OCIRepository", name: "web" }, path: "./", interval: "1m", prune: true },
        },
        rollout: {
          stages: [
            { name: "early", clusterSelector: { matchLabels: { ring: "early" } } },
            { name: "late", clusterSelector: { matchLabels: { ring: "late" } }, approval: "Manual" },
          ],
        },
      },
    });
    const gate = await eventually(
      "the late stage waiting for approval of v1",
      async () => {
        const s = await stage("late");
        return s?.phase === "WaitingForApproval" ? s : undefined;
      },
      180_000,
    );
    expect(gate.revision).toBe(`stable@${d1}`);
    expect(await versionOn("tenant1")).toBe("1");
    await approve();
    await eventually("v1 on tenant2", async () => (await versionOn("tenant2")) === "1", 120_000);

    // The tag moves to v2: the early plane follows, the gated one stays at v1's digest.
    const d2 = await pushWeb("2");
    expect(d2).not.toBe(d1);
    await mgmt.client.patch(ociPath("web"), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    await eventually("v2 on tenant1", async () => (await versionOn("tenant1")) === "2", 180_000);
    await eventually(
      "the late stage waiting for approval of v2",
      async () => (await stage("late"))?.revision === `stable@${d2}`,
      120_000,
    );
    expect(await versionOn("tenant2")).toBe("1");
    const pinnedName = `web-${d1.slice("sha256:".length, "sha256:".length + 10)}`;
    const child = await mgmt.client.get<Kustomization>(pathOf(SERVED_KINDS.Kustomization, env.ns, "web-tenant2"));
    expect(child.spec.sourceRef).toEqual({ kind: "OCIRepository", name: pinnedName });
    const pinned = await mgmt.client.get<OCIRepository>(ociPath(pinnedName));
    expect(pinned.spec.ref).toEqual({ digest: d1 });
    expect(pinned.spec.url).toBe(`${reg.url}/manifests/web`);
    expect(pinned.status?.artifact?.revision).toBe(d1);
    expect(child.status?.lastAppliedRevision).toBe(d1);

    await approve();
    await eventually("v2 on tenant2", async () => (await versionOn("tenant2")) === "2", 120_000);
    // The v1 pin, read by no child now, is swept.
    await eventually(
      "the v1 pin deleted",
      () =>
        mgmt.client.get(ociPath(pinnedName)).then(
          () => false,
          (err: unknown) => err instanceof NotFoundError,
        ),
      120_000,
    );
  }, 480_000);

  it("a FleetHelmRelease whose chartRef is an OCIRepository installs the chart on both tenant planes", async () => {
    await pushChart(reg, "addon", "1.0.0", { message: "from the registry" });
    await createChartFleet("addon");
    const fhr = await eventually(
      "the FleetHelmRelease Ready on both planes",
      async () => {
        const o = await mgmt.client.get<FleetHelmRelease>(fhrPath());
        if (o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True") return o;
        throw new Error(JSON.stringify({ ready: o.status?.conditions, clusters: o.status?.clusters }));
      },
      240_000,
      1000,
    );
    const digest = (await mgmt.client.get<OCIRepository>(ociPath("addon-chart"))).status!.artifact!.revision.split(
      "@",
    )[1]!;
    const version = `1.0.0+${digest.slice("sha256:".length, "sha256:".length + 12)}`;
    // What each plane applied: the chart version and the artifact digest it came from.
    expect(fhr.status?.clusters?.map((c) => [c.cluster, c.revision])).toEqual([
      ["tenant1", `${version}@${digest}`],
      ["tenant2", `${version}@${digest}`],
    ]);
    for (const t of Object.keys(tenants)) {
      const ls = JSON.parse(await env.helm(["ls", "-n", RELEASE_NS, "-o", "json"], t)) as {
        name: string;
        chart: string;
        status: string;
      }[];
      expect(ls.map((r) => [r.name, r.chart, r.status])).toEqual([["addon", `addon-${version}`, "deployed"]]);
    }
  }, 300_000);

  it("a FleetHelmRelease staged rollout of a chartRef holds the gated plane at the chart digest it reached", async () => {
    const d1 = await pushChart(reg, "staged", "1.0.0", { message: "one" });
    const path = pathOf(SERVED_KINDS.FleetHelmRelease, env.ns, "staged");
    await createChartFleet("staged", {
      stages: [
        { name: "early", clusterSelector: { matchLabels: { ring: "early" } } },
        { name: "late", clusterSelector: { matchLabels: { ring: "late" } }, approval: "Manual" },
      ],
    });
    const stageOf = async (name: string) =>
      (await mgmt.client.get<FleetHelmRelease>(path)).status?.rollout?.stages.find((s) => s.name === name);
    const chartOn = async (t: string) =>
      (JSON.parse(await env.helm(["ls", "-n", RELEASE_NS, "-o", "json"], t)) as { name: string; chart: string }[]).find(
        (r) => r.name === "staged",
      )?.chart;
    const approveStaged = async () => {
      const r = await runCli([
        "approve",
        "fhr",
        "staged",
        "-n",
        env.ns,
        "--kubeconfig",
        plane("management").kubeconfig,
      ]);
      expect(r.code, r.stderr).toBe(0);
    };
    const v = (version: string, digest: string) => `staged-${version}+${digest.slice(7, 19)}`;

    const gate = await eventually(
      "the late stage waiting for approval of 1.0.0",
      async () => {
        const s = await stageOf("late");
        return s?.phase === "WaitingForApproval" ? s : undefined;
      },
      240_000,
    );
    expect(gate.revision).toBe(`1.0.0@${d1}`);
    expect(await chartOn("tenant1")).toBe(v("1.0.0", d1));
    await approveStaged();
    await eventually("1.0.0 on tenant2", async () => (await chartOn("tenant2")) === v("1.0.0", d1), 180_000);

    // 1.1.0 is pushed: the early plane follows, the gated one stays on 1.0.0's digest.
    const d2 = await pushChart(reg, "staged", "1.1.0", { message: "two" });
    await mgmt.client.patch(ociPath("staged-chart"), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    await eventually("1.1.0 on tenant1", async () => (await chartOn("tenant1")) === v("1.1.0", d2), 180_000);
    await eventually(
      "the late stage waiting for approval of 1.1.0",
      async () => (await stageOf("late"))?.revision === `1.1.0@${d2}`,
      120_000,
    );
    expect(await chartOn("tenant2")).toBe(v("1.0.0", d1));
    const pinnedName = `staged-${d1.slice(7, 17)}`;
    const child = await mgmt.client.get<{ spec: { chartRef: unknown }; status: { history: { ociDigest?: string }[] } }>(
      pathOf(SERVED_KINDS.HelmRelease, env.ns, "staged-tenant2"),
    );
    expect(child.spec.chartRef).toEqual({ kind: "OCIRepository", name: pinnedName });
    expect(child.status.history[0]!.ociDigest).toBe(d1);
    const pinned = await mgmt.client.get<OCIRepository>(ociPath(pinnedName));
    expect(pinned.spec.ref).toEqual({ digest: d1 });
    expect(pinned.spec.layerSelector).toEqual({ mediaType: HELM_LAYER, operation: "copy" });

    await approveStaged();
    await eventually("1.1.0 on tenant2", async () => (await chartOn("tenant2")) === v("1.1.0", d2), 180_000);
    await eventually(
      "the 1.0.0 pin deleted",
      () =>
        mgmt.client.get(ociPath(pinnedName)).then(
          () => false,
          (err: unknown) => err instanceof NotFoundError,
        ),
      120_000,
    );
    await mgmt.client.delete(path);
  }, 600_000);
});

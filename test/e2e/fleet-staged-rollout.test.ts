// A staged rollout over three real planes — canary (the management plane), early (tenant1), late
// (tenant2, behind a manual gate): a revision reaches a stage only after the stage before it ran it
// Ready; a revision failing health on the canary halts, and the later stages stay on the revision they
// had (read on those planes); a fixing commit resumes; the gate opens with `flotilla approve`.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import type { StageStatus } from "../../src/api/fleet/rollout.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import type { Controller } from "../../src/runtime/controller.js";
import { NotFoundError } from "../../src/kube/errors.js";
import type { Cluster } from "../../src/kube/cluster.js";
import { REVISION_ANNOTATION } from "../../src/fleet/rollout/members.js";
import { runCli } from "../support/cli.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const SHARD = "flotilla.dev/shard";
const planes: Record<string, { plane: string; ring: string; cluster?: Cluster; ns?: string }> = {
  canary: { plane: "management", ring: "canary" },
  early: { plane: "tenant1", ring: "early" },
  late: { plane: "tenant2", ring: "late" },
};
let h: KustomizeHarness;
const controllers: Controller[] = [];
const fkPath = () => pathOf(SERVED_KINDS.FleetKustomization, h.ns, "web");
const mgmtKubeconfig = () => plane("management").kubeconfig;

const app = (version: string, image: string) => ({
  "apps/web/cm.yaml": [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: web-version",
    "  namespace: ${target_ns}",
    "data:",
    `  version: "${version}"`,
    "",
  ].join("\n"),
  "apps/web/deploy.yaml": [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: web",
    "  namespace: ${target_ns}",
    "spec:",
    "  replicas: 1",
    "  selector: { matchLabels: { app: web } }",
    "  template:",
    "    metadata: { labels: { app: web } }",
    `    spec: { containers: [{ name: web, image: "${image}" }] }`,
    "",
  ].join("\n"),
});

/** The version the app's ConfigMap shows on a plane (undefined when absent). */
async function versionOn(cluster: string): Promise<string | undefined> {
  const p = planes[cluster]!;
  try {
    const cm = await p.cluster!.client.get<{ data: { version: string } }>(
      `/api/v1/namespaces/${p.ns}/configmaps/web-version`,
    );
    return cm.data.version;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

const fk = () => h.mgmt.client.get<FleetKustomization>(fkPath());
const stage = async (name: string): Promise<StageStatus | undefined> =>
  (await fk()).status?.rollout?.stages.find((s) => s.name === name);
const head = () => h.repo.head();

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "rollout" });
  await serveFleetCrds(h);
  for (const [name, p] of Object.entries(planes)) {
    p.cluster = planeCluster(p.plane);
    p.ns = await testNamespace(p.cluster.client, "rollout");
    let secretRef: { name: string; key?: string };
    if (p.plane === "management") {
      await h.mgmt.client.create(`/api/v1/namespaces/${h.ns}/secrets`, {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "management-kubeconfig", namespace: h.ns },
        stringData: { value: readFileSync(mgmtKubeconfig(), "utf8") },
      });
      secretRef = { name: "management-kubeconfig" };
    } else secretRef = { name: await h.copyAdminKubeconfig(p.plane), key: "admin.conf" };
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name, namespace: h.ns, labels: { [SHARD]: h.ns, ring: p.ring } },
      spec: { kubeConfig: { secretRef }, variables: { target_ns: p.ns }, interval: "10s" },
    });
  }
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
  await h.commit(app("1", "ghcr.io/example/web:1"), "web v1");
}, 180_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await h.mgmt.client.delete(fkPath()).catch(() => {});
  await h?.stop();
}, 120_000);

describe("FleetKustomization staged rollout", () => {
  it("takes a revision through the stages in order and waits at the manual gate until approved", async () => {
    const v1 = await head();
    await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "web", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        clusterSelector: {},
        template: {
          spec: {
            sourceRef: { kind: "GitRepository", name: "platform" },
            path: "./apps/web",
            interval: "1m",
            prune: true,
            wait: true,
            timeout: "20s",
          },
        },
        rollout: {
          stages: [
            { name: "canary", clusterSelector: { matchLabels: { ring: "canary" } }, bakeTime: "2s" },
            { name: "early", clusterSelector: { matchLabels: { ring: "early" } }, bakeTime: "2s" },
            { name: "late", clusterSelector: { matchLabels: { ring: "late" } }, approval: "Manual" },
          ],
        },
      },
    });
    const gate = await eventually(
      "the late stage waiting for approval",
      async () => {
        const s = await stage("late");
        return s?.phase === "WaitingForApproval" ? s : undefined;
      },
      180_000,
    );
    expect(gate.revision).toBe(`main@sha1:${v1}`);
    expect(await versionOn("canary")).toBe("1");
    expect(await versionOn("early")).toBe("1");
    expect(await versionOn("late")).toBeUndefined();
    const waiting = (await fk()).status!.conditions!.find((c) => c.type === "Ready")!;
    expect(waiting).toMatchObject({ status: "False", reason: "WaitingForApproval" });
    expect(waiting.message).toContain("flotilla approve fleetkustomization web");
    // Each held cluster reads a copy of the source pinned to the commit its stage reached.
    const child = await h.getKs("web-early");
    expect(child.metadata.annotations?.[REVISION_ANNOTATION]).toBe(`main@sha1:${v1}`);
    expect(child.spec.sourceRef).toEqual({ kind: "GitRepository", name: `web-${v1.slice(0, 10)}` });

    const approved = await runCli(["approve", "fks", "web", "-n", h.ns, "--kubeconfig", mgmtKubeconfig()]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`approving stage late of FleetKustomization web at main@sha1:${v1}`);
    await eventually("v1 on the late stage", async () => (await versionOn("late")) === "1", 120_000);
    await eventually(
      "the rollout complete and the FleetKustomization Ready",
      async () => (await fk()).status?.conditions?.find((c) => c.type === "Ready")?.status === "True",
      120_000,
    );
    const again = await runCli(["approve", "fks", "web", "-n", h.ns, "--kubeconfig", mgmtKubeconfig()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no stage of FleetKustomization ${h.ns}/web is waiting for approval`);
  }, 420_000);

  it("halts when the canary fails health, keeping the later stages on their revision, and resumes on a fix", async () => {
    const v1 = await head();
    await h.commit(app("2", "registry.invalid/never:2"), "web v2: an image that never pulls");
    const v2 = await head();
    const halted = await eventually(
      "the rollout halted at the canary",
      async () => {
        const s = await stage("canary");
        return s?.phase === "Halted" ? s : undefined;
      },
      180_000,
    );
    expect(halted.message).toMatch(new RegExp(`^halted at main@sha1:${v2}: canary: health check failed`));
    const ready = (await fk()).status!.conditions!.find((c) => c.type === "Ready")!;
    expect(ready).toMatchObject({ status: "False", reason: "RolloutHalted" });
    expect(ready.message).toContain("canary: health check failed");
    // The later stages never received v2: their planes still show v1, their children stay pinned to it.
    expect(await versionOn("early")).toBe("1");
    expect(await versionOn("late")).toBe("1");
    for (const child of ["web-early", "web-late"])
      expect((await h.getKs(child)).metadata.annotations?.[REVISION_ANNOTATION]).toBe(`main@sha1:${v1}`);
    expect((await stage("early"))?.revision).toBe(`main@sha1:${v1}`);

    await h.commit(app("3", "ghcr.io/example/web:3"), "web v3: fixed");
    const v3 = await head();
    await eventually("v3 on the early stage", async () => (await versionOn("early")) === "3", 180_000);
    expect(await versionOn("canary")).toBe("3");
    const gate = await eventually(
      "the late stage waiting for approval of v3",
      async () => {
        const s = await stage("late");
        return s?.phase === "WaitingForApproval" && s.revision === `main@sha1:${v3}` ? s : undefined;
      },
      120_000,
    );
    expect(gate.completedRevision).toBe(`main@sha1:${v1}`);
    expect(await versionOn("late")).toBe("1");
    const approved = await runCli([
      "approve",
      "fks",
      "web",
      "-n",
      h.ns,
      "--stage",
      "late",
      "--kubeconfig",
      mgmtKubeconfig(),
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    await eventually("v3 on the late stage", async () => (await versionOn("late")) === "3", 120_000);
    // The pinned copies of v1 and v2 are gone once no child reads them.
    await eventually(
      "only v3's pinned source left",
      async () => {
        const repos = await h.mgmt.client.listAll<KubeObject>(pathOf(SERVED_KINDS.GitRepository, h.ns), {
          labelSelector: "fleet.flotilla.dev/pinned-for=web",
        });
        return repos.items.map((r) => r.metadata.name).join() === `web-${v3.slice(0, 10)}`;
      },
      60_000,
    );
  }, 480_000);
});

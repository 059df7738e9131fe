// `flotilla plan` on the local fleet. One repository holds a FleetKustomization's app (on tenant1 and
// tenant2, each cluster's own namespace), a tenant app applied to each plane as a service account that
// may only touch ConfigMaps on tenant1 (and Secrets too on tenant2), and a HelmRelease that a
// Kustomization on the management cluster applies. A change to all of them is planned from a local
// directory: a value change listed once per cluster, a removed file as a prune on each, the HelmRelease's
// new values as the rendered Deployment's diff (found through the Kustomization that applies it), the
// tenant's new Secret Forbidden on tenant1 only — and nothing written anywhere.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetPlan } from "../../src/fleet/plan/types.js";
import type { FleetHelmRelease } from "../../src/api/fleet/fleet-helmrelease.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import type { Controller } from "../../src/runtime/controller.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { benchChart, replicasChart } from "../support/charts.js";
import { runCli } from "../support/cli.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const SHARD = "flotilla.dev/shard";
const SECRET_VALUE = "tenant-token-value-5b1d";
const TENANTS = ["tenant1", "tenant2"] as const;
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const remoteNs: Record<string, string> = {};
let h: KustomizeHarness;
let env: HelmReleaseEnv;
let work: string;
const controllers: Controller[] = [];
const mgmt = () => plane("management").kubeconfig;

const yaml = (...l: string[]) => `${l.join("\n")}\n`;
const infoApp = (color: string) =>
  yaml(
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: info",
    "  namespace: ${target_ns}",
    "data:",
    `  color: ${color}`,
    "  cluster: ${cluster_name}",
  );
const release = (replicas: number, version = "1.0.0") =>
  yaml(
    "apiVersion: helm.toolkit.fluxcd.io/v2",
    "kind: HelmRelease",
    "metadata:",
    "  name: web",
    `  namespace: ${env.ns}`,
    `  labels: { ${SHARD}: ${env.ns} }`,
    "spec:",
    "  interval: 10m",
    "  timeout: 60s",
    "  chart:",
    `    metadata: { labels: { ${SHARD}: ${env.ns} } }`,
    `    spec: { chart: web, version: ${version}, sourceRef: { kind: HelmRepository, name: charts } }`,
    "  values:",
    `    replicas: ${replicas}`,
  );
// An add-on for every cluster of the release namespace, its values per cluster, in Git too.
const ADDON_NS = `plan-addon-${process.pid}`;
const addon = (version: string) =>
  yaml(
    "apiVersion: fleet.flotilla.dev/v1alpha1",
    "kind: FleetHelmRelease",
    "metadata:",
    "  name: addon",
    `  namespace: ${env.ns}`,
    `  labels: { ${SHARD}: ${env.ns} }`,
    "spec:",
    "  clusterSelector: { matchLabels: { addon: enabled } }",
    "  template:",
    `    metadata: { labels: { ${SHARD}: ${env.ns} } }`,
    "    spec:",
    "      interval: 10m",
    "      timeout: 60s",
    `      targetNamespace: ${ADDON_NS}`,
    "      releaseName: addon",
    "      install: { createNamespace: true }",
    "      chart:",
    `        metadata: { labels: { ${SHARD}: ${env.ns} } }`,
    "        spec: { chart: bench, version: 1.0.0, sourceRef: { kind: HelmRepository, name: charts } }",
    "      values:",
    `        message: "${version} on \${cluster_name}"`,
  );
const v1 = () => ({
  "apps/info/cm.yaml": infoApp("blue"),
  "apps/info/old.yaml": yaml(
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: old",
    "  namespace: ${target_ns}",
  ),
  "tenant/cm.yaml": yaml("apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: tenant-app", "data:", '  v: "1"'),
  "releases/web.yaml": release(0),
  "releases/addon.yaml": addon("v1"),
});
const v2 = (): Record<string, string | null> => ({
  "apps/info/cm.yaml": infoApp("green"),
  "apps/info/old.yaml": null,
  "tenant/secret.yaml": yaml(
    "apiVersion: v1",
    "kind: Secret",
    "metadata:",
    "  name: tenant-token",
    "stringData:",
    `  token: ${SECRET_VALUE}`,
  ),
  "releases/web.yaml": release(2),
});

/** A local checkout: the repository's files with `changes` laid over them. */
function checkout(name: string, changes: Record<string, string | null> = {}): string {
  const dir = join(work, name);
  for (const [file, content] of Object.entries({ ...v1(), ...changes })) {
    if (content === null) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

const addonPath = () => pathOf(SERVED_KINDS.FleetHelmRelease, env.ns, "addon");
const source = () => `GitRepository/${h.ns}/platform`;
const plan = (...args: string[]) => runCli(["plan", ...args, "--kubeconfig", mgmt()], { timeoutMs: 180_000 });

/** Every object the plan could touch, by resourceVersion, and every Event in those namespaces. */
async function footprint(): Promise<string[]> {
  const out: string[] = [];
  const collect = async (where: string, client: typeof h.mgmt.client, path: string) => {
    const { items } = await client.listAll<{ metadata: { name: string; resourceVersion: string } }>(path);
    for (const o of items) out.push(`${where} ${path} ${o.metadata.name}@${o.metadata.resourceVersion}`);
  };
  for (const t of TENANTS)
    for (const kind of ["configmaps", "secrets", "events"])
      await collect(t, tenants[t].client, `/api/v1/namespaces/${remoteNs[t]}/${kind}`);
  for (const ns of [h.ns, env.ns]) {
    await collect("management", h.mgmt.client, `/api/v1/namespaces/${ns}/events`);
    await collect("management", h.mgmt.client, pathOf(SERVED_KINDS.Kustomization, ns));
    await collect("management", h.mgmt.client, pathOf(SERVED_KINDS.HelmRelease, ns));
    await collect("management", h.mgmt.client, `/apis/apps/v1/namespaces/${ns}/deployments`);
  }
  await collect("management", h.mgmt.client, pathOf(SERVED_KINDS.FleetKustomization, h.ns));
  return out.sort();
}

beforeAll(async () => {
  work = makeWorkDir("flotilla-plan-e2e-");
  h = await startKustomizeHarness({ prefix: "plan" });
  env = await startHelmReleaseEnv("plan-hr");
  await replicasChart(env.charts);
  await replicasChart(env.charts, "web", "1.1.0"); // published, not yet asked for
  await benchChart(env.charts);
  await serveFleetCrds(h);
  for (const t of TENANTS) {
    remoteNs[t] = await testNamespace(tenants[t].client, "plan");
    const rbac = (kind: string, body: Record<string, unknown>) =>
      tenants[t].client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${remoteNs[t]}/${kind}`, body);
    // The tenant's identity on its plane: ConfigMaps only on tenant1, Secrets too on tenant2.
    await rbac("roles", {
      metadata: { name: "tenant" },
      rules: [
        { apiGroups: [""], resources: t === "tenant1" ? ["configmaps"] : ["configmaps", "secrets"], verbs: ["*"] },
      ],
    });
    await rbac("rolebindings", {
      metadata: { name: "tenant" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "tenant" },
      subjects: [{ kind: "ServiceAccount", name: "tenant", namespace: h.ns }],
    });
    const secret = await h.copyAdminKubeconfig(t);
    // The same plane as a Cluster of the release namespace too (the controller process fans the add-on out there).
    const admin = await h.mgmt.client.get<{ data: Record<string, string> }>(pathOf(USED_KINDS.Secret, h.ns, secret));
    await h.mgmt.client.create(pathOf(USED_KINDS.Secret, env.ns), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: secret, namespace: env.ns },
      data: { "admin.conf": admin.data["admin.conf"]! },
    });
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, env.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: env.ns, labels: { [SHARD]: env.ns, addon: "enabled" } },
      spec: { kubeConfig: { secretRef: { name: secret, key: "admin.conf" } }, interval: "10m" },
    });
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: h.ns, labels: { [SHARD]: h.ns, env: "prod" } },
      spec: {
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
        variables: { target_ns: remoteNs[t]! },
        interval: "10s",
      },
    });
    await h.createKs(`tenant-${t}`, {
      path: "./tenant",
      prune: true,
      targetNamespace: remoteNs[t],
      serviceAccountName: "tenant",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
  }
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
  await h.commit(v1(), "apps, a tenant's app and a release");
  await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "FleetKustomization",
    metadata: { name: "info", namespace: h.ns, labels: { [SHARD]: h.ns } },
    spec: {
      clusterSelector: { matchLabels: { env: "prod" } },
      template: {
        spec: {
          sourceRef: { kind: "GitRepository", name: "platform" },
          path: "./apps/info",
          interval: "1m",
          prune: true,
        },
      },
    },
  });
  await h.createKs("releases", { path: "./releases", prune: true });
  for (const name of ["tenant-tenant1", "tenant-tenant2", "releases", "info-tenant1", "info-tenant2"])
    await h.waitReady(name);
  await env.waitReady("web");
  await eventually(
    "the add-on on both clusters",
    async () => {
      const o = await h.mgmt.client.get<FleetHelmRelease>(addonPath());
      if (o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True") return o;
      throw new Error(JSON.stringify(o.status?.clusters ?? o.status?.conditions));
    },
    240_000,
    1000,
  );
}, 600_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  // The add-on's children uninstall their releases as they go; then its namespace on each plane.
  await h?.mgmt.client.delete(addonPath()).catch(() => {});
  await eventually(
    "the add-on's children gone",
    async () =>
      (await h.mgmt.client.get<{ items: unknown[] }>(pathOf(SERVED_KINDS.HelmRelease, env.ns))).items.length <= 1,
    120_000,
  ).catch(() => {});
  for (const t of TENANTS) await tenants[t].client.delete(`/api/v1/namespaces/${ADDON_NS}`).catch(() => {});
  await h?.mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "info")).catch(() => {});
  await env?.stop();
  await h?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 180_000);

const appOf = (p: FleetPlan, name: string) => {
  const a = p.apps.find((x) => x.name === name);
  if (!a) throw new Error(`no plan for ${name} in ${JSON.stringify(p.apps.map((x) => x.name))}`);
  return a;
};

describe("flotilla plan", () => {
  it("lists a change once per cluster, prunes, the release's Deployment diff, Forbidden for one tenant — and writes nothing", async () => {
    // Controllers quiet first (the fleet's stopped, every Kustomization suspended), so that any write or
    // Event after this point would be the plan's.
    for (const c of controllers.splice(0)) await c.stop();
    await h.mgmt.client.patch(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "info"), "merge", {
      spec: { suspend: true },
    });
    for (const name of ["tenant-tenant1", "tenant-tenant2", "releases", "info-tenant1", "info-tenant2"])
      await h.mgmt.client.patch(pathOf(SERVED_KINDS.Kustomization, h.ns, name), "merge", { spec: { suspend: true } });
    const dir = checkout("v2", v2());
    const before = await footprint();
    const r = await plan("--source", `${source()}=${dir}`, "-o", "json");
    expect(r.code, r.stderr).toBe(2); // tenant1's service account may not create the Secret
    expect(r.stdout).not.toContain(SECRET_VALUE);
    const p = JSON.parse(r.stdout) as FleetPlan;
    for (const t of TENANTS) {
      const info = appOf(p, `info-${t}`);
      expect(info.cluster).toBe(`${h.ns}/${t}`);
      expect(info.via).toContain(`FleetKustomization ${h.ns}/info`);
      expect(info.change).toEqual([
        { subject: `ConfigMap/${remoteNs[t]}/info`, diff: [{ path: "data.color", before: "blue", after: "green" }] },
      ]);
      expect(info.prune).toEqual([`ConfigMap/${remoteNs[t]}/old`]);
    }
    const t1 = appOf(p, "tenant-tenant1");
    expect(t1.cluster).toBe(`${h.ns}/tenant1`);
    expect(t1.errors).toHaveLength(1);
    expect(t1.errors[0]!.subject).toBe(`Secret/${remoteNs.tenant1}/tenant-token`);
    expect(t1.errors[0]!.message).toMatch(/forbidden/i);
    const t2 = appOf(p, "tenant-tenant2");
    expect(t2.errors).toEqual([]);
    expect(t2.create).toEqual([`Secret/${remoteNs.tenant2}/tenant-token`]);
    expect(t2.unchanged).toBe(1);
    // The HelmRelease in Git, found through the Kustomization that applies it, rendered with its new values.
    const releases = appOf(p, "releases");
    expect(releases.cluster).toBe("management");
    expect(releases.change.map((c) => c.subject)).toEqual([`HelmRelease/${env.ns}/web`]);
    const web = appOf(p, "web");
    expect(web.via).toBe(`rendered by Kustomization ${h.ns}/releases (spec changed)`);
    expect(web.change).toEqual([
      { subject: `Deployment/${env.ns}/web`, diff: [{ path: "spec.replicas", before: 0, after: 2 }] },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it("a FleetHelmRelease's values changed in Git: each cluster's release shows its own rendered diff", async () => {
    const r = await plan(
      "--source",
      `${source()}=${checkout("addon", { "releases/addon.yaml": addon("v2") })}`,
      "-o",
      "json",
    );
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(appOf(p, "releases").change.map((c) => c.subject)).toEqual([`FleetHelmRelease/${env.ns}/addon`]);
    for (const t of TENANTS) {
      const child = appOf(p, `addon-${t}`);
      expect(child.kind).toBe("HelmRelease");
      expect(child.cluster).toBe(`${env.ns}/${t}`);
      expect(child.via).toBe(
        `FleetHelmRelease ${env.ns}/addon (rendered by Kustomization ${h.ns}/releases (spec changed))`,
      );
      expect(child.change).toEqual([
        {
          subject: `ConfigMap/${ADDON_NS}/addon`,
          diff: [{ path: "data.message", before: `v1 on ${t}`, after: `v2 on ${t}` }],
        },
      ]);
      expect(child.errors).toEqual([]);
    }
  });

  it("a HelmRelease's chart version bump is pulled from its HelmRepository and rendered", async () => {
    const r = await plan(
      "--source",
      `${source()}=${checkout("bump", { "releases/web.yaml": release(0, "1.1.0") })}`,
      "-o",
      "json",
    );
    expect(r.code, r.stderr).toBe(1);
    const web = appOf(JSON.parse(r.stdout) as FleetPlan, "web");
    expect(web.errors).toEqual([]);
    // The chart's own ConfigMap names its version too (the test repository's default template).
    expect(web.change).toEqual([
      {
        subject: `ConfigMap/${env.ns}/web-web`,
        diff: [{ path: "data.chart", before: "web-1.0.0", after: "web-1.1.0" }],
      },
      {
        subject: `Deployment/${env.ns}/web`,
        diff: [{ path: "metadata.labels.chart-version", before: "1.0.0", after: "1.1.0" }],
      },
    ]);
  });

  it("-o markdown has a section per cluster and the summary; exit 1 for changes, 0 for none", async () => {
    const colour = checkout("colour", { "apps/info/cm.yaml": infoApp("green") });
    const r = await plan("--source", `${source()}=${colour}`, "-o", "markdown");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      "## flotilla plan\n\n**0 to create, 2 to change, 0 to prune, 0 errors, on 2 of 3 clusters**",
    );
    expect(r.stdout).toContain("| Cluster | App | Create | Change | Prune | Unchanged | Errors |");
    for (const t of TENANTS) {
      expect(r.stdout).toContain(`### Cluster \`${h.ns}/${t}\``);
      expect(r.stdout).toContain(`| ${h.ns}/${t} | Kustomization/${h.ns}/info-${t} | 0 | 1 | 0 | 1 | 0 |`);
      expect(r.stdout).toContain(`! ConfigMap/${remoteNs[t]}/info\n  data.color\n-   blue\n+   green\n`);
    }
    const text = await plan(
      "--source",
      `${source()}=${checkout("colour-text", { "apps/info/cm.yaml": infoApp("green") })}`,
    );
    expect(text.code, text.stderr).toBe(1);
    for (const t of TENANTS)
      expect(text.stdout).toContain(
        `\ncluster ${h.ns}/${t}\n  Kustomization/${h.ns}/info-${t} (FleetKustomization ${h.ns}/info (reads ${source()}))\n`,
      );
    const same = await plan("--source", `${source()}=${checkout("same")}`);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toContain("Summary: 0 to create, 0 to change, 0 to prune, 0 errors");
  });

  it("--revision plans a branch of the repository, checked out with the GitRepository's own URL", async () => {
    await h.repo.commit({ "apps/info/cm.yaml": infoApp("red") }, "red, on a branch", { branch: "feature" });
    const r = await plan("--source", source(), "--revision", "feature", "-o", "json");
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(p.sources[0]).toMatch(new RegExp(`^${source()}@feature \\([0-9a-f]{12}\\)$`));
    for (const t of TENANTS)
      expect(appOf(p, `info-${t}`).change[0]!.diff).toEqual([{ path: "data.color", before: "blue", after: "red" }]);
  });

  it("--offline compares with a snapshot and says what it cannot know", async () => {
    const file = join(work, "snapshot.json");
    const taken = await plan("--snapshot", file);
    expect(taken.code, taken.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(SECRET_VALUE);
    const copy = join(work, "offline-snapshot.json");
    cpSync(file, copy);
    const r = await runCli([
      "plan",
      "--offline",
      "--snapshot",
      copy,
      "--source",
      `${source()}=${checkout("v2-offline", v2())}`,
      "-o",
      "json",
    ]);
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(p.mode).toBe("offline");
    expect(p.caveats.join(" ")).toMatch(/RBAC \(Forbidden\)/);
    for (const t of TENANTS) {
      const info = appOf(p, `info-${t}`);
      expect(info.change).toEqual([
        { subject: `ConfigMap/${remoteNs[t]}/info`, diff: [{ path: "data.color", before: "blue", after: "green" }] },
      ]);
      expect(info.prune).toEqual([`ConfigMap/${remoteNs[t]}/old`]);
      // Offline cannot know RBAC: the Secret shows as a creation on both tenants.
      expect(appOf(p, `tenant-${t}`).create).toEqual([`Secret/${remoteNs[t]}/tenant-token`]);
    }
    expect(appOf(p, "web").change).toEqual([
      { subject: `Deployment/${env.ns}/web`, diff: [{ path: "spec.replicas", before: 0, after: 2 }] },
    ]);
    expect(r.stdout).not.toContain(SECRET_VALUE);
  });
});

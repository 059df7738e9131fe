// `flotilla demo`: the product's main job on the local fleet, end to end with real parts. A Git
// repository served over smart HTTP (password-protected) holds one overlay per tenant cluster; the
// controllers run in this process against the management plane; one Kustomization per tenant
// applies into that tenant's hosted control plane through its Kamaji admin kubeconfig Secret. Then
// a commit rolls out, and hand-made drift in a tenant is put back. Beside it, the fleet layer: every
// Kamaji plane is discovered as a Cluster, and one FleetHelmRelease fans an add-on chart out to all of
// them (a HelmRelease per plane, installed with the real helm, the release stored in the tenant).
import { randomBytes } from "node:crypto";
import { servedCrds } from "../api/flux-crds.js";
import { HELM_GROUP, KUSTOMIZE_GROUP, SERVED_KINDS, SOURCE_GROUP, USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import { startManager } from "../controllers/manager.js";
import { Cluster } from "../kube/cluster.js";
import { endpointFromKubeconfigFile } from "../kube/kubeconfig.js";
import type { KubeObject } from "../api/meta/object.js";
import { REQUESTED_AT_ANNOTATION } from "../api/meta/annotations.js";
import type { Logger } from "../runtime/logger.js";
import { waitFor } from "../local/bootstrap.js";
import { startGitHttpServer } from "./git-http-server.js";
import { adminKubeconfigSecretName, TENANTS_NAMESPACE } from "../local/kamaji.js";
import { clusterOverlay, fleetRepositoryFiles } from "./fleet-repository.js";
import { ADDON_FLEET_RELEASE, addonReleaseObjects, waitAddonsReady, waitClustersReady } from "./addon-releases.js";
import { fleetControllers } from "../fleet/controllers.js";
import { startChartRegistry } from "./chart-registry.js";
import {
  type DemoView,
  kustomizationRows,
  readKustomization,
  readTenantApps,
  readTenantAddons,
  addonRows,
  clusterRows,
  fleetRows,
  helmReleaseRows,
  sourceRows,
  tenantRows,
} from "./demo-view.js";

export interface DemoPlane {
  name: string;
  kubeconfig: string;
}

export interface DemoOptions {
  management: DemoPlane;
  tenants: DemoPlane[];
  /** Artifact storage of the in-process controllers. */
  storagePath: string;
  view: DemoView;
  /** The controllers' structured log (the CLI writes it to a file next to the fleet). */
  log: Logger;
  timeoutMs?: number;
}

export interface DemoResult {
  revision: string;
  replicas: Record<string, number>;
}

const FIELD_MANAGER = "flotilla-demo";
const DEMO_LABEL = { "flotilla.dev/demo": "true" };
const G = { source: SOURCE_GROUP, ks: KUSTOMIZE_GROUP };
const ns = TENANTS_NAMESPACE;
const gitRepoPath = pathOf(SERVED_KINDS.GitRepository, ns, "fleet");
const demoKsName = (tenant: string) => `${tenant}-apps`;
const ksPath = (name: string) => pathOf(SERVED_KINDS.Kustomization, ns, name);

export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const timeoutMs = o.timeoutMs ?? 180_000;
  const mgmt = new Cluster(endpointFromKubeconfigFile(o.management.kubeconfig));
  const tenants = o.tenants.map((t) => ({ ...t, cluster: new Cluster(endpointFromKubeconfigFile(t.kubeconfig)) }));
  const names = tenants.map((t) => t.name);
  const { view } = o;

  const password = randomBytes(12).toString("hex");
  const git = await startGitHttpServer({ auth: { username: "flotilla", password } });
  const charts = await startChartRegistry().catch(async (err: unknown) => {
    await git.close();
    throw err;
  });
  let manager: Awaited<ReturnType<typeof startManager>> | undefined;
  try {
    const repo = await git.createRepo("fleet-infra");
    let sha = await repo.commit(fleetRepositoryFiles(names), "podinfo for every tenant cluster");
    view.step(`Git: ${repo.url} (basic auth), commit ${sha.slice(0, 7)} with apps/podinfo and clusters/{${names}}`);

    // The objects first, then the controllers: on a re-run they never see the last run's dead Git URL.
    for (const crd of servedCrds()) await mgmt.apply(crd, FIELD_MANAGER, { force: true });
    await mgmt.discovery.waitForMapping({ group: G.ks, version: "v1", kind: "Kustomization" }, 30_000);
    await mgmt.discovery.waitForMapping({ group: G.source, version: "v1", kind: "GitRepository" }, 30_000);
    await mgmt.discovery.waitForMapping({ group: G.source, version: "v1", kind: "OCIRepository" }, 30_000);
    await mgmt.discovery.waitForMapping({ group: HELM_GROUP, version: "v2", kind: "HelmRelease" }, 30_000);
    for (const obj of desiredObjects(repo.url, password, names)) await mgmt.apply(obj, FIELD_MANAGER, { force: true });
    view.step(`applied to the management plane: GitRepository ${ns}/fleet and Kustomizations ${names.map(demoKsName)}`);
    // Kamaji discovery runs under the demo's label selector like every controller here: the planes carry it.
    for (const t of names)
      await mgmt.client.patch(pathOf(USED_KINDS.TenantControlPlane, ns, t), "merge", {
        metadata: { labels: DEMO_LABEL },
      });
    for (const obj of addonReleaseObjects(charts.chartUrl)) await mgmt.apply(obj, FIELD_MANAGER, { force: true });
    view.step(
      `Helm: chart pushed to ${charts.chartUrl} by helm; applied OCIRepository ${ns}/addons and one FleetHelmRelease ${ns}/${ADDON_FLEET_RELEASE} (chartRef) for every Kamaji plane`,
    );
    manager = await startManager({
      endpoint: mgmt.client.endpoint,
      concurrent: 4,
      noCrossNamespaceRefs: true,
      watchLabelSelector: "flotilla.dev/demo=true",
      kubeApiQps: 50,
      kubeApiBurst: 300,
      leaderElection: false,
      leaseDurationMs: 0,
      renewDeadlineMs: 0,
      retryPeriodMs: 0,
      runtimeNamespace: ns,
      storagePath: o.storagePath,
      storageHost: "127.0.0.1",
      storagePort: 0,
      healthHost: "127.0.0.1",
      healthPort: 0,
      receiverHost: "127.0.0.1",
      receiverPort: 0,
      requeueDependencyMs: 2000,
      installCrds: false,
      log: o.log,
      extraControllers: (cluster) => fleetControllers(cluster, { kamajiDiscovery: true }),
    });
    view.step("source, Kustomization, HelmRelease and fleet controllers (Kamaji discovery on) started in this process");

    await waitApplied(mgmt, names, `main@sha1:${sha}`, timeoutMs);
    view.table(...sourceRows([await mgmt.client.get<KubeObject>(gitRepoPath)]));
    view.table(
      ...kustomizationRows(await Promise.all(names.map((n) => readKustomization(mgmt, ksPath(demoKsName(n)))))),
    );
    view.table(...tenantRows(await readTenantApps(tenants)));
    view.table(...clusterRows(await waitClustersReady(mgmt, names, timeoutMs)));
    view.step(
      `discovered: a Ready Cluster for each TenantControlPlane (${names.join(", ")}), nothing registered by hand`,
    );
    const addons = await waitAddonsReady(mgmt, names, timeoutMs);
    view.table(...fleetRows([addons.fleet]));
    view.table(...helmReleaseRows(addons.releases));
    view.table(...addonRows(await readTenantAddons(tenants)));

    const last = names[names.length - 1]!;
    sha = await repo.commit(clusterOverlay(last, 3, `scaled out on ${last}`), `${last}: three replicas`);
    view.step(`Git: commit ${sha.slice(0, 7)} scales podinfo on ${last} to 3; asking the source to fetch now`);
    await annotateNow(mgmt, gitRepoPath);
    await waitApplied(mgmt, names, `main@sha1:${sha}`, timeoutMs);
    view.table(...tenantRows(await readTenantApps(tenants)));

    const first = tenants[0]!;
    await first.cluster.client.patch(
      pathOf(USED_KINDS.Deployment, "podinfo", "podinfo"),
      "merge",
      { spec: { replicas: 7 } },
      { fieldManager: "kubectl-edit" },
    );
    view.step(`drift: someone scaled podinfo on ${first.name} to 7 by hand; reconciling ${demoKsName(first.name)}`);
    const at = await annotateNow(mgmt, ksPath(demoKsName(first.name)));
    await waitFor(
      `${demoKsName(first.name)} to handle the reconcile request`,
      async () => (await readKustomization(mgmt, ksPath(demoKsName(first.name)))).lastHandledReconcileAt === at,
      timeoutMs,
    );
    const apps = await readTenantApps(tenants);
    const replicas = Object.fromEntries(apps.map((a) => [a.cluster, a.replicas ?? 0]));
    const declared = first.name === last ? 3 : 1;
    if (replicas[first.name] !== declared)
      throw new Error(`drift on ${first.name} was not corrected: podinfo has ${replicas[first.name]} replicas`);
    view.step(`drift corrected: podinfo on ${first.name} is back to the ${declared} replica(s) Git declares`);
    view.table(...tenantRows(apps));
    return { revision: `main@sha1:${sha}`, replicas };
  } finally {
    await manager?.stop();
    await git.close();
    await charts.close();
  }
}

function desiredObjects(url: string, password: string, tenants: string[]): KubeObject[] {
  const meta = (name: string) => ({ name, namespace: ns, labels: DEMO_LABEL });
  return [
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: meta("fleet-infra-auth"),
      stringData: { username: "flotilla", password },
    },
    {
      apiVersion: `${G.source}/v1`,
      kind: "GitRepository",
      metadata: meta("fleet"),
      spec: { interval: "1m", url, ref: { branch: "main" }, secretRef: { name: "fleet-infra-auth" } },
    },
    ...tenants.map((t) => ({
      apiVersion: `${G.ks}/v1`,
      kind: "Kustomization",
      metadata: meta(demoKsName(t)),
      spec: {
        interval: "10m",
        path: `./clusters/${t}`,
        prune: true,
        wait: true,
        timeout: "2m",
        sourceRef: { kind: "GitRepository", name: "fleet" },
        kubeConfig: { secretRef: { name: adminKubeconfigSecretName(t), key: "admin.conf" } },
      },
    })),
  ] as KubeObject[];
}

/** `flux reconcile`'s trigger: stamp reconcile.fluxcd.io/requestedAt; returns the stamp. */
async function annotateNow(mgmt: Cluster, path: string): Promise<string> {
  const at = new Date().toISOString();
  await mgmt.client.patch(path, "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
  return at;
}

async function waitApplied(mgmt: Cluster, tenants: string[], revision: string, timeoutMs: number): Promise<void> {
  for (const t of tenants) {
    const path = ksPath(demoKsName(t));
    try {
      await waitFor(
        `Kustomization ${ns}/${demoKsName(t)} Ready at ${revision}`,
        async () => {
          const k = await readKustomization(mgmt, path);
          return k.ready === "True" && k.lastAppliedRevision === revision;
        },
        timeoutMs,
        500,
      );
    } catch (err) {
      const k = await readKustomization(mgmt, path).catch(() => undefined);
      throw new Error(`${(err as Error).message}${k ? ` (Ready=${k.ready}: ${k.message})` : ""}`);
    }
  }
}

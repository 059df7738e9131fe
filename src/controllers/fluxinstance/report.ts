// What a FluxReport says, computed as the operator's internal/reporter does it: the distribution (the
// GitRepository CRD served), the cluster (API server version, platform, nodes), the components (the
// Flux controllers flotilla's process provides), per-kind reconciler statistics (running = all but the
// suspended; failing = Ready=False but not DependencyNotReady; suspended = spec.suspend, or the
// operator's reconcile: disabled on its own kinds; totalSize = the artifacts' sizes) and the cluster
// sync (the Kustomization named after the namespace, or the FluxInstance's sync.name, and its source).
import {
  HELM_GROUP,
  KUSTOMIZE_GROUP,
  NOTIFICATION_GROUP,
  OPERATOR_GROUP,
  SERVED_KINDS,
  SOURCE_GROUP,
  storageVersion,
  USED_KINDS,
} from "../../api/kinds.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import { type FluxInstance, INSTANCE_NAME } from "../../api/operator/fluxinstance.js";
import type { FluxReportSpec, ReconcilerStats } from "../../api/operator/fluxreport.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { computeHealth } from "../../ssa/index.js";
import { runningImage } from "./components.js";
import { DEFAULT_COMPONENTS, FLUX_API_VERSION } from "./mapping.js";
import { isDisabled } from "../kit/operator-annotations.js";
import { formatBinarySize } from "../../util/binary-size.js";

const FLUX_GROUPS = [SOURCE_GROUP, KUSTOMIZE_GROUP, HELM_GROUP, NOTIFICATION_GROUP];
const OPERATOR_KINDS = ["FluxInstance", "ResourceSet", "ResourceSetInputProvider"];
const GO_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "arm", ia32: "386" };
export const goPlatform = () => `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`;

type Obj = KubeObject & {
  spec?: { suspend?: boolean };
  status?: { conditions?: Condition[]; artifact?: { size?: number } };
};

/** The operator's formatSize: "" for 0, bytes below 1 KiB, else one decimal and a binary unit. */
export const formatSize = (b: number): string => formatBinarySize(b, "");

/** One kind's statistics from its objects (flux kinds suspend by spec.suspend, the operator's by annotation). */
export function kindStats(items: Obj[], operatorKind: boolean): ReconcilerStats {
  let suspended = 0;
  let failing = 0;
  let size = 0;
  for (const o of items) {
    if (operatorKind ? isDisabled(o) : o.spec?.suspend === true) suspended++;
    else {
      const ready = o.status?.conditions?.find((c) => c.type === "Ready");
      if (ready?.status === "False" && ready.reason !== "DependencyNotReady") failing++;
    }
    size += o.status?.artifact?.size ?? 0;
  }
  const total = formatSize(size);
  return { running: items.length - suspended, failing, suspended, ...(total ? { totalSize: total } : {}) };
}

export async function computeReport(cluster: Cluster, namespace: string, version: string): Promise<FluxReportSpec> {
  const c = cluster.client;
  const crd = await c
    .get<KubeObject>(pathOf(USED_KINDS.CustomResourceDefinition, undefined, "gitrepositories.source.toolkit.fluxcd.io"))
    .catch(() => undefined);
  const spec: FluxReportSpec = {
    distribution: crd
      ? {
          entitlement: "Unknown",
          status: "Installed",
          version: crd.metadata.labels?.["app.kubernetes.io/version"] ?? FLUX_API_VERSION,
          managedBy: crd.metadata.labels?.["app.kubernetes.io/managed-by"] ?? "flotilla",
        }
      : { entitlement: "Unknown", status: "Not Installed" },
  };
  const server = await c.get<{ gitVersion: string; platform: string }>("/version").catch(() => undefined);
  const nodes = await c.listAll(pathOf(USED_KINDS.Node)).catch(() => undefined);
  if (server)
    spec.cluster = {
      serverVersion: server.gitVersion,
      platform: server.platform,
      ...(nodes?.items.length ? { nodes: nodes.items.length } : {}),
    };
  spec.operator = { apiVersion: `${OPERATOR_GROUP}/v1`, version: `v${version}`, platform: goPlatform() };

  const image = await runningImage(cluster, namespace, version);
  const health = image.deployment ? computeHealth(image.deployment) : undefined;
  spec.components = DEFAULT_COMPONENTS.map((name) => ({
    name,
    ready: health ? health.status === "Current" : true,
    status: health
      ? `${health.status} ${health.message}`
      : "Current in flotilla's controller process (not a Deployment)",
    image: `${image.repository}:${image.tag}${image.digest ? `@${image.digest}` : ""}`,
  })).sort((a, b) => a.name.localeCompare(b.name));

  const kinds = Object.values(SERVED_KINDS).filter(
    (k) => FLUX_GROUPS.includes(k.group) || (k.group === OPERATOR_GROUP && OPERATOR_KINDS.includes(k.kind)),
  );
  spec.reconcilers = [];
  for (const kind of kinds) {
    const list = await c.listAll<Obj>(pathOf(kind)).catch(() => undefined);
    if (!list) continue; // not served (yet): left out, as the operator leaves out kinds without a CRD
    const apiVersion = `${kind.group}/${storageVersion(kind)}`;
    spec.reconcilers.push({ apiVersion, kind: kind.kind, stats: kindStats(list.items, kind.group === OPERATOR_GROUP) });
  }
  spec.reconcilers.sort((a, b) => (a.apiVersion + a.kind).localeCompare(b.apiVersion + b.kind));
  const sync = await syncStatus(cluster, namespace);
  if (sync) spec.sync = sync;
  return spec;
}

async function syncStatus(cluster: Cluster, namespace: string): Promise<FluxReportSpec["sync"]> {
  const c = cluster.client;
  const instance = await c
    .get<FluxInstance>(pathOf(SERVED_KINDS.FluxInstance, namespace, INSTANCE_NAME))
    .catch(() => undefined);
  const name = instance?.spec.sync?.name || namespace;
  const ks = await c
    .get<Obj & { spec: { path?: string; sourceRef?: { kind: string } } }>(
      pathOf(SERVED_KINDS.Kustomization, namespace, name),
    )
    .catch(() => undefined);
  if (!ks) return undefined;
  const sync = {
    id: `kustomization/${name}`,
    ...(ks.spec.path ? { path: ks.spec.path } : {}),
    ready: false,
    status: "not initialized",
    source: undefined as string | undefined,
  };
  const ready = ks.status?.conditions?.find((x) => x.type === "Ready");
  if (ready) {
    sync.ready = ready.status !== "False";
    sync.status = ready.message;
  }
  const sourceKind = Object.values(SERVED_KINDS).find(
    (k) => k.group === SOURCE_GROUP && k.kind === ks.spec.sourceRef?.kind,
  );
  if (sourceKind) {
    const src = await c
      .get<Obj & { spec: { url?: string } }>(pathOf(sourceKind, namespace, name))
      .catch(() => undefined);
    if (src?.spec.url) sync.source = src.spec.url;
    const srcReady = src?.status?.conditions?.find((x) => x.type === "Ready");
    if (srcReady?.status === "False") {
      sync.ready = false;
      sync.status += `\n${srcReady.message}`;
    }
  }
  if (ks.spec.suspend) sync.status = `Suspended ${sync.status}`;
  const { source, ...rest } = sync;
  return source ? { ...rest, source } : rest;
}

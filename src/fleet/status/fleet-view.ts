// The fleet at a glance, pure: every cluster with the Kustomizations and HelmReleases that target it,
// failing first. An app's cluster is the one its fleet parent gave it (`fleet.flotilla.dev/cluster`), else
// the Cluster whose kubeconfig Secret its spec.kubeConfig names, else that Secret itself (`secret/<ns>/<name>`
// — the fleet kinds are not required), else the management cluster it runs in.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import { getCondition } from "../../runtime/conditions.js";
import { CLUSTER_LABEL } from "../children/children.js";

export type App = KubeObject & {
  kind: string;
  spec: { suspend?: boolean; kubeConfig?: { secretRef?: { name: string } } };
  status?: {
    conditions?: Condition[];
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
    history?: { chartVersion?: string }[];
  };
};

export interface AppRow {
  kind: string;
  namespace: string;
  name: string;
  revision: string;
  ready: string;
  suspended: boolean;
  message: string;
}

export interface ClusterGroup {
  /** `management`, a Cluster's `<namespace>/<name>`, or `secret/<namespace>/<name>`. */
  cluster: string;
  ready: string;
  version?: string;
  lastProbeTime?: string;
  message: string;
  apps: AppRow[];
}

export const MANAGEMENT = "management";
const readyOf = (o: { status?: { conditions?: Condition[] } }) => getCondition(o.status?.conditions, "Ready");
const failing = (ready: string) => ready !== "True";

function appRow(a: App): AppRow {
  const r = readyOf(a);
  return {
    kind: a.kind,
    namespace: a.metadata.namespace ?? "",
    name: a.metadata.name,
    revision:
      a.status?.lastAppliedRevision ?? a.status?.history?.[0]?.chartVersion ?? a.status?.lastAttemptedRevision ?? "",
    ready: r?.status ?? "Unknown",
    suspended: a.spec.suspend === true,
    message: r?.message ?? "",
  };
}

/** Failing (not Ready) first, then by namespace and name. */
const byUrgency = (a: AppRow, b: AppRow) =>
  Number(failing(b.ready)) - Number(failing(a.ready)) ||
  `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`);

/** The cluster an app applies to (see the top of this file). */
export function clusterKeyOf(a: App, bySecret: Map<string, FleetCluster>): string {
  const ns = a.metadata.namespace ?? "";
  const fleetCluster = a.metadata.labels?.[CLUSTER_LABEL];
  if (fleetCluster) return `${ns}/${fleetCluster}`;
  const secret = a.spec.kubeConfig?.secretRef?.name;
  if (!secret) return MANAGEMENT;
  const c = bySecret.get(`${ns}/${secret}`);
  return c ? `${ns}/${c.metadata.name}` : `secret/${ns}/${secret}`;
}

/** Clusters by the `<namespace>/<name>` of their kubeconfig Secret, for clusterKeyOf. */
export const clustersBySecret = (clusters: FleetCluster[]) =>
  new Map(clusters.map((c) => [`${c.metadata.namespace}/${c.spec.kubeConfig.secretRef.name}`, c]));

export function fleetView(
  clusters: FleetCluster[],
  apps: App[],
  keep: (a: AppRow) => boolean = () => true,
): ClusterGroup[] {
  const groups = new Map<string, ClusterGroup>();
  const group = (key: string, init: () => Omit<ClusterGroup, "apps">) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ...init(), apps: [] }));
    return g;
  };
  const management = () => ({ cluster: MANAGEMENT, ready: "True", message: "the cluster flotilla runs in" });
  group(MANAGEMENT, management);
  const bySecret = new Map<string, FleetCluster>();
  for (const c of clusters) {
    const key = `${c.metadata.namespace}/${c.metadata.name}`;
    const r = readyOf(c);
    group(key, () => ({
      cluster: key,
      ready: r?.status ?? "Unknown",
      ...(c.status?.kubernetesVersion ? { version: c.status.kubernetesVersion } : {}),
      ...(c.status?.lastProbeTime ? { lastProbeTime: c.status.lastProbeTime } : {}),
      message: r?.message ?? "not probed yet",
    }));
    bySecret.set(`${c.metadata.namespace}/${c.spec.kubeConfig.secretRef.name}`, c);
  }
  for (const a of apps) {
    const row = appRow(a);
    if (!keep(row)) continue;
    const key = clusterKeyOf(a, bySecret);
    const unknown = () => ({
      cluster: key,
      ready: "Unknown",
      message: `no Cluster object for the kubeconfig Secret ${key.slice("secret/".length)}`,
    });
    group(key, unknown).apps.push(row);
  }
  const out = [...groups.values()].filter((g) => g.cluster !== MANAGEMENT || g.apps.length);
  for (const g of out) g.apps.sort(byUrgency);
  // A cluster with a failing app (or not Ready itself) before the others.
  // (A group known only by its Secret is Unknown, not failing: its apps decide.)
  const urgent = (g: ClusterGroup) => g.ready === "False" || g.apps.some((a) => failing(a.ready));
  return out.sort((a, b) => Number(urgent(b)) - Number(urgent(a)) || a.cluster.localeCompare(b.cluster));
}

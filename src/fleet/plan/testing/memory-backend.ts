// A PlanBackend for unit tests of the plan's decisions (which apps, which clusters, which rows): each
// target cluster's objects held by an in-memory client — or the error reaching it — and sources as
// local directories. The comparison is the offline plan's own (compareWithSnapshot) and prune is the
// controller's rule. How a real cluster answers a server-side dry-run (defaults, admission, RBAC,
// timeouts) stays proven end to end (test/e2e/cli-plan.test.ts, fault-tenant-plane-down.test.ts).
import type { FleetCluster } from "../../../api/fleet/cluster.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { Kustomization } from "../../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { releaseName } from "../../../controllers/helmrelease/release-name.js";
import { KUSTOMIZATION_FIELD_MANAGER, prunedEntries } from "../../../controllers/kustomization/render-apply.js";
import type { InMemoryKube } from "../../../kube/testing/in-memory-client.js";
import { inventoryId } from "../../../ssa/index.js";
import { type App, clusterKeyOf } from "../../status/fleet-view.js";
import type { AppOutcome, PlanBackend } from "../backend.js";
import { keyOf } from "../management-state.js";
import { compareWithSnapshot } from "../offline-backend.js";
import { subjectOf } from "../online-backend.js";
import { scrubbed } from "../snapshot.js";

const CLUSTER_SCOPED = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition"]);
const RELEASE_NAME = "meta.helm.sh/release-name";

export interface MemoryFleet {
  /** Per cluster as a plan names it (`management`, `<namespace>/<cluster>`): its objects, or why it cannot be reached. */
  clusters: Record<string, InMemoryKube | Error>;
  /** The current artifact of each source, `Kind/namespace/name` → directory. */
  artifacts?: Record<string, string>;
  /** The plan's Clusters, to name an app's cluster from its kubeConfig Secret (as the plan does). */
  clusterObjects: FleetCluster[];
}

export interface MemoryBackend extends PlanBackend {
  /** Each cluster an app was diffed against, `<cluster> <Kind>/<name>`, in order. */
  asked: string[];
  /** Each chart pulled from a HelmRepository, `<chart>@<version>`. */
  pulled: string[];
}

export function memoryBackend(fleet: MemoryFleet): MemoryBackend {
  const bySecret = new Map(
    fleet.clusterObjects.map((c) => [`${c.metadata.namespace}/${c.spec.kubeConfig.secretRef.name}`, c]),
  );
  const asked: string[] = [];
  const pulled: string[] = [];
  /** The app's cluster, as online it is reached with the app's kubeConfig: a down one rejects. */
  const reach = async (app: Kustomization | HelmRelease): Promise<KubeObject[]> => {
    const key = clusterKeyOf(app as unknown as App, bySecret);
    asked.push(`${key} ${app.kind}/${app.metadata.name}`);
    const kube = fleet.clusters[key];
    if (!kube) throw new Error(`no cluster ${key} in this test's fleet`);
    if (kube instanceof Error) throw kube;
    return [...kube.objects.values()].map((o) => scrubbed(o));
  };
  return {
    mode: "online",
    asked,
    pulled,
    variables: async (ks) => ({ ...ks.spec.postBuild?.substitute }),
    async artifactDir(kind, namespace, name) {
      const dir = fleet.artifacts?.[keyOf(kind, namespace, name)];
      if (!dir) throw new Error(`${kind}/${namespace}/${name} has no artifact yet`);
      return dir;
    },
    chart: async (hr) => `current chart of HelmRelease ${hr.metadata.namespace}/${hr.metadata.name}`,
    async pullChart(_repo, chart, version) {
      pulled.push(`${chart}@${version}`);
      return `pulled ${chart}@${version}`;
    },
    values: async (hr) => structuredClone(hr.spec.values ?? {}),
    namespaced: async (_hr, o) => !CLUSTER_SCOPED.has(o.kind),
    async diffKustomization(ks, objects): Promise<AppOutcome> {
      const entries = compareWithSnapshot(objects, await reach(ks), KUSTOMIZATION_FIELD_MANAGER);
      const kept = { entries: entries.map((e) => ({ id: inventoryId(e), v: e.version })) };
      return { entries, deleted: prunedEntries(ks, kept).map((e) => subjectOf(e.id)) };
    },
    async diffHelmRelease(hr, objects): Promise<AppOutcome> {
      const live = await reach(hr);
      const entries = compareWithSnapshot(objects, live);
      // What the release installed before (helm's ownership annotation) and renders no more is deleted.
      const keep = new Set(entries.map((e) => e.subject));
      const release = releaseName(hr);
      const deleted = live
        .filter((o) => o.metadata.annotations?.[RELEASE_NAME] === release)
        .map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)
        .filter((s) => !keep.has(s));
      return { entries, deleted };
    },
  };
}

// The online plan: sources and values read from the management cluster, and every app diffed against
// its own target with a server-side dry-run as the identity its controller would use (its service
// account impersonated, on the cluster of its kubeConfig Secret). Reads and dry-runs only.
import { join } from "node:path";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import { loadChart } from "../../controllers/helmrelease/chart-source.js";
import { releaseName, targetNamespace } from "../../controllers/helmrelease/release-name.js";
import { manifestObjects, ReleaseStorage } from "../../controllers/helmrelease/storage/release.js";
import { composeValues } from "../../controllers/helmrelease/values/compose.js";
import { targetCluster } from "../../controllers/kit/target-cluster.js";
import { substitutionVariables } from "../../controllers/kustomization/variables.js";
import type { Cluster } from "../../kube/cluster.js";
import { SourceFetcher } from "../../sources/consumer.js";
import { inventoryId, parseInventoryId, type Redactor, ResourceManager } from "../../ssa/index.js";
import type { AppOutcome, PlanBackend } from "./backend.js";
import { pullChart } from "./chart-pull.js";
import { secretValues } from "./helm-values.js";
import { checkoutRevision } from "./source-overrides.js";

export const subjectOf = (id: string) => {
  const m = parseInventoryId(id);
  return m.namespace ? `${m.kind}/${m.namespace}/${m.name}` : `${m.kind}/${m.name}`;
};

export async function diffKustomizationOn(
  target: Cluster,
  ks: Kustomization,
  objects: KubeObject[],
  redactor: Redactor,
): Promise<AppOutcome> {
  const manager = new ResourceManager(target, {
    fieldManager: "kustomize-controller",
    owner: { group: KUSTOMIZE_GROUP, name: ks.metadata.name, namespace: ks.metadata.namespace! },
    force: ks.spec.force,
    previousInventory: ks.status?.inventory ?? { entries: [] },
  });
  const entries = await manager.plan(objects, redactor);
  const keep = new Set(entries.map((e) => inventoryId(e)));
  const deleted = ks.spec.prune
    ? (ks.status?.inventory?.entries ?? []).filter((e) => !keep.has(e.id)).map((e) => subjectOf(e.id))
    : [];
  return { entries, deleted };
}

export async function diffHelmReleaseOn(
  target: Cluster,
  hr: HelmRelease,
  objects: KubeObject[],
  redactor: Redactor,
): Promise<AppOutcome> {
  const entries = await new ResourceManager(target, { fieldManager: "helm" }).plan(objects, redactor);
  const storageNs = hr.spec.storageNamespace ?? targetNamespace(hr);
  const last = await new ReleaseStorage(target.client, storageNs).last(releaseName(hr));
  const keep = new Set(entries.map((e) => e.subject));
  const deleted: string[] = [];
  for (const o of (last ? manifestObjects(last) : []) as unknown as KubeObject[]) {
    const namespaced = await target.mapping(o).then(
      (m) => m.namespaced,
      () => true,
    );
    const subject = namespaced
      ? `${o.kind}/${o.metadata.namespace ?? targetNamespace(hr)}/${o.metadata.name}`
      : `${o.kind}/${o.metadata.name}`;
    if (!keep.has(subject)) deleted.push(subject);
  }
  return { entries, deleted };
}

export function onlineBackend(
  management: Cluster,
  o: { work: string; defaultServiceAccount?: string; revision?: string },
): PlanBackend {
  const sources = new SourceFetcher(management.client, join(o.work, "artifacts"));
  // One read of each kubeconfig Secret per plan, not one per app or per rendered object.
  const targets = new Map<string, Promise<Cluster>>();
  const target = (obj: Kustomization | HelmRelease) => {
    const ref = obj.spec.kubeConfig?.secretRef;
    const key = [obj.metadata.namespace, ref?.name, ref?.key, obj.spec.serviceAccountName].join("|");
    let t = targets.get(key);
    if (!t) targets.set(key, (t = targetCluster(management, obj, o.defaultServiceAccount)));
    return t;
  };
  let checkouts = 0;
  return {
    mode: "online",
    variables: (ks, redactor) => substitutionVariables(management, ks, redactor),
    artifactDir: async (kind, namespace, name) =>
      (await sources.fetch({ kind: kind as "GitRepository", name, namespace }, namespace)).dir,
    chart: async (hr) => (await loadChart(sources, hr, 0)).path,
    pullChart: (repo, chart, version) => pullChart(repo, chart, version, o.work),
    async values(hr, redactor) {
      redactor.addValues((await secretValues(management, hr)).values);
      return (await composeValues(management.client, hr)).values;
    },
    namespaced: async (hr, obj) =>
      (await target(hr)).mapping(obj).then(
        (m) => m.namespaced,
        () => true,
      ),
    diffKustomization: async (ks, objects, redactor) => diffKustomizationOn(await target(ks), ks, objects, redactor),
    diffHelmRelease: async (hr, objects, redactor) => diffHelmReleaseOn(await target(hr), hr, objects, redactor),
    async checkoutChanged(repo, live) {
      const gr = repo as GitRepository;
      const was = live as GitRepository | undefined;
      // The change is not reviewed yet: its credentials go only where they went before (same origin, same
      // Secret). A new URL or Secret is checked out anonymously — never a token sent to a host a PR names.
      const origin = (u: string | undefined) => {
        try {
          return u ? new URL(u).origin : undefined;
        } catch {
          return undefined;
        }
      };
      const trusted =
        !!was &&
        origin(was.spec.url) === origin(gr.spec.url) &&
        was.spec.secretRef?.name === gr.spec.secretRef?.name &&
        (was.spec as { proxySecretRef?: { name: string } }).proxySecretRef?.name ===
          (gr.spec as { proxySecretRef?: { name: string } }).proxySecretRef?.name;
      const anonymous = {
        ...gr,
        spec: { ...gr.spec, secretRef: undefined, proxySecretRef: undefined },
      } as GitRepository;
      const credentials = gr.spec.secretRef || (gr.spec as { proxySecretRef?: unknown }).proxySecretRef;
      const { dir } = await checkoutRevision(
        management.client,
        trusted ? gr : anonymous,
        undefined,
        join(o.work, `changed-${++checkouts}`),
      );
      return credentials && !trusted
        ? {
            dir,
            note: `GitRepository ${gr.metadata.namespace}/${gr.metadata.name}: its new URL or Secret was checked out without credentials (not reviewed yet)`,
          }
        : { dir };
    },
  };
}

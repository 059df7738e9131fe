// The online plan: sources and values read from the management cluster, and every app diffed against
// its own target with a server-side dry-run as the identity its controller would use (its service
// account impersonated, on the cluster of its kubeConfig Secret). Reads and dry-runs only.
import { join } from "node:path";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import { loadChart } from "../../controllers/helmrelease/chart-source.js";
import { releaseApplyOptions, releasePrunedSubjects } from "../../controllers/helmrelease/render-apply.js";
import { composeValues } from "../../controllers/helmrelease/values/compose.js";
import { targetCluster } from "../../controllers/kit/target-cluster.js";
import { kustomizationApplyOptions, prunedEntries } from "../../controllers/kustomization/render-apply.js";
import { substitutionVariables } from "../../controllers/kustomization/variables.js";
import type { Cluster } from "../../kube/cluster.js";
import { SourceFetcher } from "../../sources/consumer.js";
import { inventoryId, parseInventoryId, type Redactor, ResourceManager } from "../../ssa/index.js";
import type { AppOutcome, PlanBackend } from "./backend.js";
import { pullChart } from "./chart-pull.js";
import { secretValues } from "./helm-values.js";
import { planResourceSetOnline } from "./resourceset-plan.js";
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
  const entries = await new ResourceManager(target, kustomizationApplyOptions(ks)).plan(objects, redactor);
  const kept = { entries: entries.map((e) => ({ id: inventoryId(e), v: e.version })) };
  return { entries, deleted: prunedEntries(ks, kept).map((e) => subjectOf(e.id)) };
}

export async function diffHelmReleaseOn(
  target: Cluster,
  hr: HelmRelease,
  objects: KubeObject[],
  redactor: Redactor,
): Promise<AppOutcome> {
  const entries = await new ResourceManager(target, releaseApplyOptions()).plan(objects, redactor);
  return { entries, deleted: await releasePrunedSubjects(target, hr, new Set(entries.map((e) => e.subject))) };
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
    planResourceSet: (r, redactor) => planResourceSetOnline(management, r, redactor, o.defaultServiceAccount),
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

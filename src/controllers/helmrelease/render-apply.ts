// What a HelmRelease renders and how it is applied, said once beside the actions that install it: the
// chart rendered with the release's name and namespace through the same post-renderer plugin the
// install and upgrade run (post-render/plugin.ts), the ownership metadata helm adds to what it installs,
// the field manager ("helm") and what an upgrade deletes (the last release's objects the render lacks).
// `flotilla plan`, `build` and `diff` preview by it, so a preview renders as the controller installs.
import { parseAllDocuments } from "yaml";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { KubeObject } from "../../api/meta/object.js";
import { HelmError, HelmHome, runHelm } from "../../binaries/helm/index.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ResourceManagerOptions } from "../../ssa/index.js";
import { PostRenderError } from "./post-render/render.js";
import { postRenderFailure } from "./post-render/plugin.js";
import { chartFlags } from "./actions/release-action.js";
import { checkedReleaseName, releaseName, targetNamespace } from "./release-name.js";
import { manifestObjects, ReleaseStorage } from "./storage/release.js";

/** The field manager helm applies as (server-side install and upgrade), and drift is corrected as. */
export const HELM_FIELD_MANAGER = "helm";

/** How a preview plans the render on the release's cluster: as helm writes it. */
export const releaseApplyOptions = (): ResourceManagerOptions => ({ fieldManager: HELM_FIELD_MANAGER });

/** Whether an object's kind is namespaced on the release's cluster (helm leaves the namespace out). */
export type Namespaced = (o: KubeObject) => Promise<boolean>;

/** `helm template` of `chart` with `values` and the release's post-renderer, with what helm adds on install. */
export async function renderRelease(
  hr: HelmRelease,
  chart: string,
  values: Record<string, unknown>,
  namespaced: Namespaced,
): Promise<KubeObject[]> {
  const ns = targetNamespace(hr);
  // Refused as the controller refuses it; and after "--", so no name is ever read as a flag.
  const release = checkedReleaseName(hr);
  // A private home per render, as per action: the values (0600) and the plugin go with it.
  const home = new HelmHome();
  let rendered;
  try {
    const args = ["template", "--namespace", ns, ...chartFlags(home, hr, values), "--", release, chart];
    rendered = await runHelm(args, { home }).catch((err: unknown) => {
      // helm says only that the plugin "exited with error": the post-renderer left its own words.
      const failure = err instanceof HelmError ? postRenderFailure(home, hr) : undefined;
      throw failure ? new PostRenderError(failure) : err;
    });
  } finally {
    home.remove();
  }
  const objects = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((x): x is KubeObject => !!x && typeof x === "object");
  for (const obj of objects) {
    if (!obj.metadata.namespace && (await namespaced(obj))) obj.metadata.namespace = ns;
    // What helm itself adds to every object it installs (and owns as field manager "helm").
    obj.metadata.labels = { ...obj.metadata.labels, "app.kubernetes.io/managed-by": "Helm" };
    obj.metadata.annotations = {
      ...obj.metadata.annotations,
      "meta.helm.sh/release-name": release,
      "meta.helm.sh/release-namespace": ns,
    };
  }
  return objects;
}

/**
 * What the upgrade deletes: the objects of the last release in helm's storage on `target` that are not
 * among `kept` (subjects `Kind/ns/name`, or `Kind/name` for cluster-scoped kinds).
 */
export async function releasePrunedSubjects(target: Cluster, hr: HelmRelease, kept: Set<string>): Promise<string[]> {
  const storageNs = hr.spec.storageNamespace ?? targetNamespace(hr);
  const last = await new ReleaseStorage(target.client, storageNs).last(releaseName(hr));
  const deleted: string[] = [];
  for (const o of (last ? manifestObjects(last) : []) as unknown as KubeObject[]) {
    const namespaced = await target.mapping(o).then(
      (m) => m.namespaced,
      () => true,
    );
    const subject = namespaced
      ? `${o.kind}/${o.metadata.namespace ?? targetNamespace(hr)}/${o.metadata.name}`
      : `${o.kind}/${o.metadata.name}`;
    if (!kept.has(subject)) deleted.push(subject);
  }
  return deleted;
}

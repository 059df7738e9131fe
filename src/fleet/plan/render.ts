// What a Kustomization or HelmRelease would apply, rendered as its controller renders it: the
// Kustomization's build of spec.path with the owner labels kustomize-controller sets; the HelmRelease's
// `helm template` with its release name and namespace, post-renderers, and the ownership metadata helm
// adds on install. Shared by `flotilla build|diff` and `flotilla plan`.
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { runHelm } from "../../binaries/helm/index.js";
import { buildKustomizationObjects } from "../../controllers/kustomization/build.js";
import { postRender } from "../../controllers/helmrelease/post-render/render.js";
import { checkedReleaseName, targetNamespace } from "../../controllers/helmrelease/release-name.js";

/** Builds spec.path of `artifactDir` as Kustomization `ks` would; objects carry its owner labels. */
export function renderKustomization(
  artifactDir: string,
  ks: Kustomization,
  vars: Record<string, string>,
): KubeObject[] {
  const owner = {
    [`${KUSTOMIZE_GROUP}/name`]: ks.metadata.name,
    [`${KUSTOMIZE_GROUP}/namespace`]: ks.metadata.namespace!,
  };
  return buildKustomizationObjects(artifactDir, ks.spec, vars).map((o) => ({
    ...o,
    metadata: { ...o.metadata, labels: { ...(o.metadata.labels ?? {}), ...owner } },
  }));
}

/** Whether an object's kind is namespaced on the release's cluster (helm leaves the namespace out). */
export type Namespaced = (o: KubeObject) => Promise<boolean>;

/** `helm template` of `chart` with `values`, post-rendered, with what helm adds to what it installs. */
export async function renderHelmRelease(
  hr: HelmRelease,
  chart: string,
  values: Record<string, unknown>,
  work: string,
  namespaced: Namespaced,
): Promise<KubeObject[]> {
  // One file per render: names alone could collide (`a-b/c` and `a/b-c`), handing one app another's values.
  const valuesFile = join(work, `values-${randomUUID()}.yaml`);
  writeFileSync(valuesFile, JSON.stringify(values));
  const ns = targetNamespace(hr);
  // Refused as the controller refuses it; and after "--", so no name is ever read as a flag.
  const release = checkedReleaseName(hr);
  let rendered;
  try {
    rendered = await runHelm(["template", "--namespace", ns, "--values", valuesFile, "--", release, chart]);
  } finally {
    rmSync(valuesFile, { force: true }); // values may hold what came from a Secret
  }
  const objects = parseAllDocuments(postRender(rendered.stdout, hr))
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

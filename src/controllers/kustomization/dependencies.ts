// A Kustomization's dependsOn: the kit's check (kit/dependencies.ts) plus Flux's own rule for this kind —
// a dependency that shares our source has applied the revision we are about to apply, so infrastructure
// and tenants from one commit roll forward in order.
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import type { CelProgram } from "../../util/cel.js";
import { checkDependsOn, compileReadyExprs } from "../kit/dependencies.js";

export const kustomizationPath = (ns: string, name: string) => pathOf(SERVED_KINDS.Kustomization, ns, name);

export async function checkDependencies(
  cluster: Cluster,
  sources: SourceFetcher,
  ks: Kustomization,
  refs: { noCrossNamespaceRefs?: boolean; waitMs: number },
  readyExprs: Map<number, CelProgram> = compileReadyExprs(ks),
): Promise<void> {
  await checkDependsOn(cluster, ks, { ...refs, path: kustomizationPath }, readyExprs, (other, notReady) =>
    sameSourceRevision(sources, ks, other as Kustomization, notReady),
  );
}

/** Kustomizations of one source roll forward in order: the dependency has applied our revision. */
async function sameSourceRevision(sources: SourceFetcher, ks: Kustomization, other: Kustomization, notReady: Error) {
  const ns = other.metadata.namespace!;
  const sameSource =
    other.spec.sourceRef.kind === ks.spec.sourceRef.kind &&
    other.spec.sourceRef.name === ks.spec.sourceRef.name &&
    (other.spec.sourceRef.namespace ?? ns) === (ks.spec.sourceRef.namespace ?? ks.metadata.namespace);
  if (
    sameSource &&
    ks.status?.lastAttemptedRevision &&
    other.status?.lastAppliedRevision !== ks.status.lastAttemptedRevision
  ) {
    const source = await sources
      .artifactOf(
        { kind: ks.spec.sourceRef.kind, name: ks.spec.sourceRef.name, namespace: ks.spec.sourceRef.namespace },
        ks.metadata.namespace!,
      )
      .catch(() => undefined);
    if (source && other.status?.lastAppliedRevision !== source.revision) throw notReady;
  }
}

// An OCI HelmRepository is a static data container, as in Flux (source-controller's
// migrationToStatic): nothing is fetched and no status is kept — its HelmCharts read the registry
// themselves (helmchart/from-oci-helm-repository.ts). One that was a default-type repository before,
// or reconciled by an older flotilla, has its artifacts removed, its finalizer dropped and its status
// cleared, once; after that a reconcile writes nothing.
import { FLUX_FINALIZER } from "../../api/meta/annotations.js";
import type { HelmRepository } from "../../api/source/helm.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { SourceObjects } from "../source-objects.js";

export const isStaticOci = (repo: HelmRepository) => repo.spec.type === "oci";

export async function keepStatic(
  objects: SourceObjects<HelmRepository>,
  storage: Storage,
  repo: HelmRepository,
  path: string,
): Promise<void> {
  if (repo.spec.suspend && !repo.metadata.deletionTimestamp) return;
  const status = (repo.status ?? {}) as Record<string, unknown>;
  const hasFinalizer = (repo.metadata.finalizers ?? []).includes(FLUX_FINALIZER);
  if (!hasFinalizer && Object.keys(status).length === 0) return;
  storage.removeAll(storage.objectDir("HelmRepository", repo.metadata.namespace!, repo.metadata.name));
  if (Object.keys(status).length)
    await objects.patchStatus(repo, path, Object.fromEntries(Object.keys(status).map((k) => [k, null])));
  await objects.removeFinalizer(repo, path);
}

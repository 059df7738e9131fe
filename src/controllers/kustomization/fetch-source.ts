// The source artifact of a Kustomization, with Flux's failure reasons: a missing source or one
// without an artifact yet is ArtifactFailed (retried after --requeue-dependency), a blocked
// cross-namespace reference is Stalled/AccessDenied.
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { ArtifactNotReadyError, type SourceFetcher, SourceNotFoundError } from "../../sources/consumer.js";
import { ReconcileFailure } from "../kit/failure.js";

export async function fetchSource(
  sources: SourceFetcher,
  ks: Kustomization,
  refs: { noCrossNamespaceRefs?: boolean; waitMs: number },
) {
  const ref = ks.spec.sourceRef;
  const sourceNs = ref.namespace ?? ks.metadata.namespace!;
  if (refs.noCrossNamespaceRefs && sourceNs !== ks.metadata.namespace) {
    throw new ReconcileFailure(
      "AccessDenied",
      `can't access '${ref.kind}/${sourceNs}/${ref.name}', cross-namespace references have been blocked`,
      { stalled: true },
    );
  }
  try {
    return await sources.fetch({ kind: ref.kind, name: ref.name, namespace: sourceNs }, ks.metadata.namespace!);
  } catch (err) {
    if (err instanceof SourceNotFoundError || err instanceof ArtifactNotReadyError)
      throw new ReconcileFailure("ArtifactFailed", err.message, { retryAfterMs: refs.waitMs });
    // A download that failed (source controller restarting, artifact moved) is transient: retry
    // after --requeue-dependency like a missing artifact, not after the full interval.
    const cause = (err as Error & { cause?: Error }).cause;
    throw new ReconcileFailure(
      "ArtifactFailed",
      `failed to fetch the artifact of ${ref.kind}/${sourceNs}/${ref.name}: ${(err as Error).message}${cause?.message ? ` (${cause.message})` : ""}`,
      { retryAfterMs: refs.waitMs },
    );
  }
}

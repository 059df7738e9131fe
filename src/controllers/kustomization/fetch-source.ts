// The source artifact of a Kustomization, with Flux's failure reasons: a missing source or one
// without an artifact yet is ArtifactFailed (retried after --requeue-dependency), a blocked
// cross-namespace reference is Stalled/AccessDenied.
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { ArtifactNotReadyError, type SourceFetcher, SourceNotFoundError } from "../../sources/consumer.js";
import { ReconcileFailure } from "../kit/failure.js";
import { ArtifactLimitError, UnsafeArchiveError } from "../../sources/artifact/errors.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";

export async function fetchSource(
  sources: SourceFetcher,
  ks: Kustomization,
  refs: { noCrossNamespaceRefs?: boolean; waitMs: number; limits?: ArtifactLimits },
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
    const source = { kind: ref.kind, name: ref.name, namespace: sourceNs };
    return await sources.fetch(source, ks.metadata.namespace!, refs.limits);
  } catch (err) {
    if (err instanceof SourceNotFoundError || err instanceof ArtifactNotReadyError)
      throw new ReconcileFailure("ArtifactFailed", err.message, { retryAfterMs: refs.waitMs });
    // An archive that is unsafe or over the limits stays so: the next revision may fix it, a retry won't.
    // (A limit error names the artifact already; an unsafe entry does not.)
    if (err instanceof ArtifactLimitError) throw new ReconcileFailure("ArtifactFailed", err.message);
    if (err instanceof UnsafeArchiveError)
      throw new ReconcileFailure(
        "ArtifactFailed",
        `refused the artifact of ${ref.kind}/${sourceNs}/${ref.name}: ${err.message}`,
      );
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

// A FleetKustomization's staged rollout pins its template's sourceRef (rollout/pinned-source.ts holds how
// a source is pinned): which source that is, and a held child reading the pinned copy.
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import type { KubeClient } from "../../kube/client.js";
import {
  liveSourceRevision,
  PINNABLE_KINDS,
  type PinnableKind,
  type PinnedSourceRef,
  pinSource,
  RolloutSourceError,
} from "../rollout/pinned-source.js";

/** The template's source, which a rollout can pin: a GitRepository or an OCIRepository in the parent's own namespace. */
export function rolloutSource(fk: FleetKustomization): PinnedSourceRef {
  const ref = fk.spec.template.spec.sourceRef;
  const ns = fk.metadata.namespace!;
  if (!(PINNABLE_KINDS as readonly string[]).includes(ref.kind))
    throw new RolloutSourceError(
      `spec.rollout needs a GitRepository or OCIRepository source to pin held-back clusters to a revision; spec.template.spec.sourceRef is a ${ref.kind}`,
    );
  const kind = ref.kind as PinnableKind;
  if (ref.namespace && ref.namespace !== ns)
    throw new RolloutSourceError(
      `spec.rollout pins the source next to the FleetKustomization; ${kind} ${ref.namespace}/${ref.name} is in another namespace: put the ${kind} in ${ns}`,
    );
  return { kind, name: ref.name };
}

export const liveRevision = (client: KubeClient, fk: FleetKustomization) =>
  liveSourceRevision(client, fk, rolloutSource(fk));

export const pinTemplateSource = (client: KubeClient, fk: FleetKustomization, revision: string) =>
  pinSource(client, fk, "FleetKustomization", rolloutSource(fk), revision);

/** The child's spec reading the pinned copy (of the template's kind) instead of the live source. */
export function pinnedSpec(spec: KustomizationSpec, pinned: string): KustomizationSpec {
  return { ...spec, sourceRef: { kind: spec.sourceRef.kind, name: pinned } };
}

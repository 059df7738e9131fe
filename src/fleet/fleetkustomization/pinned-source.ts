// How a FleetKustomization's staged rollout holds a cluster at a revision: its child reads a copy of the
// template's GitRepository pinned to that commit (`<parent>-<first 10 of the commit>`, owned by the
// parent, in its namespace), so the cluster keeps reconciling — drift put back, a recreated cluster
// served — at exactly the revision its stage has reached, whatever the branch does meanwhile. Pinned
// copies no child reads any more are deleted.
import type { GitRepository } from "../../api/source/git-repository.js";
import { apiVersionOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { FleetError } from "../errors.js";
import { digestOf } from "../rollout/plan.js";
import { isProvablyUnchanged } from "../../ssa/index.js";
import { FLEET_FIELD_MANAGER } from "../children/children.js";

export const PINNED_FROM_LABEL = "fleet.flotilla.dev/pinned-for";

export class RolloutSourceError extends FleetError {
  override name = "RolloutSourceError";
}

/** The template's source, which a rollout can pin: a GitRepository in the parent's own namespace. */
export function rolloutSource(fk: FleetKustomization): { name: string } {
  const ref = fk.spec.template.spec.sourceRef;
  const ns = fk.metadata.namespace!;
  if (ref.kind !== "GitRepository")
    throw new RolloutSourceError(
      `spec.rollout needs a GitRepository source to pin held-back clusters to a commit; spec.template.spec.sourceRef is a ${ref.kind}`,
    );
  if (ref.namespace && ref.namespace !== ns)
    throw new RolloutSourceError(
      `spec.rollout pins the source next to the FleetKustomization; GitRepository ${ref.namespace}/${ref.name} is in another namespace: put a GitRepository in ${ns}`,
    );
  return { name: ref.name };
}

export async function liveRevision(client: KubeClient, fk: FleetKustomization): Promise<string | undefined> {
  const { name } = rolloutSource(fk);
  try {
    const repo = await client.get<GitRepository>(pathOf(SERVED_KINDS.GitRepository, fk.metadata.namespace, name));
    return repo.status?.artifact?.revision;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export const pinnedName = (fk: FleetKustomization, revision: string) =>
  `${fk.metadata.name}-${digestOf(revision)
    .replace(/^sha1:|^sha256:/, "")
    .slice(0, 10)}`;

/** The pinned copy of the template's GitRepository at `revision`, created or kept; its name. */
export async function pinSource(client: KubeClient, fk: FleetKustomization, revision: string): Promise<string> {
  const { name } = rolloutSource(fk);
  const ns = fk.metadata.namespace!;
  const original = await client.get<GitRepository>(pathOf(SERVED_KINDS.GitRepository, ns, name));
  const commit = digestOf(revision).replace(/^sha1:|^sha256:/, "");
  const pinned = pinnedName(fk, revision);
  const branch = original.spec.ref?.branch;
  const desired = {
    apiVersion: apiVersionOf(SERVED_KINDS.GitRepository),
    kind: "GitRepository",
    metadata: {
      name: pinned,
      namespace: ns,
      labels: { [PINNED_FROM_LABEL]: fk.metadata.name },
      ownerReferences: [
        {
          apiVersion: apiVersionOf(SERVED_KINDS.FleetKustomization),
          kind: "FleetKustomization",
          name: fk.metadata.name,
          uid: fk.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    // The original's spec as it is now (credentials rotated, includes changed), held at the commit.
    spec: { ...original.spec, ref: { ...(branch ? { branch } : {}), commit } },
  } as GitRepository;
  // Already there as it would be written (every reconcile of a staged parent asks again): a read, no write.
  const existing = await client
    .get<GitRepository>(pathOf(SERVED_KINDS.GitRepository, ns, pinned))
    .catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
  if (existing && !existing.metadata.deletionTimestamp && isProvablyUnchanged(desired, existing, FLEET_FIELD_MANAGER))
    return pinned;
  await client.apply(pathOf(SERVED_KINDS.GitRepository, ns, pinned), desired, FLEET_FIELD_MANAGER, { force: true });
  return pinned;
}

/** The child's spec reading the pinned copy instead of the live source. */
export function pinnedSpec(spec: KustomizationSpec, pinned: string): KustomizationSpec {
  return { ...spec, sourceRef: { kind: "GitRepository", name: pinned } };
}

/** Pinned copies of this parent that no child reads any more, deleted. */
export async function sweepPinned(client: KubeClient, fk: FleetKustomization, inUse: Set<string>): Promise<void> {
  const ns = fk.metadata.namespace!;
  const pinned = await client.listAll<GitRepository>(pathOf(SERVED_KINDS.GitRepository, ns), {
    labelSelector: `${PINNED_FROM_LABEL}=${fk.metadata.name}`,
  });
  for (const repo of pinned.items) {
    if (inUse.has(repo.metadata.name)) continue;
    await client.delete(pathOf(SERVED_KINDS.GitRepository, ns, repo.metadata.name)).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
}

// How a staged rollout holds a cluster at a revision of a source: its child reads a copy of the
// source pinned to that revision — a GitRepository at the commit, an OCIRepository at the manifest digest
// (`ref.digest`, from `<tag>@sha256:<digest>`) — named `<parent>-<first 10 hex>`, owned by the fleet
// parent, in its namespace, so the cluster keeps reconciling — drift put back, a recreated cluster served
// — at exactly the revision its stage has reached, whatever the branch or tag does meanwhile. Pinned
// copies no child reads any more are deleted. A FleetKustomization pins its sourceRef; a FleetHelmRelease
// its chartRef's OCIRepository.
import type { GitRepository } from "../../api/source/git-repository.js";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import { apiVersionOf, SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import type { KubeObject } from "../../api/meta/object.js";
import { FleetError } from "../errors.js";
import { digestOf } from "./plan.js";
import { isProvablyUnchanged } from "../../ssa/index.js";
import { FLEET_FIELD_MANAGER } from "../children/children.js";

export const PINNED_FROM_LABEL = "fleet.flotilla.dev/pinned-for";

export class RolloutSourceError extends FleetError {
  override name = "RolloutSourceError";
}

/** The kinds a rollout can pin: each names its revision by a commit or a manifest digest. */
export const PINNABLE_KINDS = ["GitRepository", "OCIRepository"] as const;
export type PinnableKind = (typeof PINNABLE_KINDS)[number];
type PinnableSource = GitRepository | OCIRepository;

/** A fleet parent whose children read a pinned source: a FleetKustomization or a FleetHelmRelease. */
export type PinningParent = KubeObject;

/** Where the rollout's source is: a GitRepository or OCIRepository in the parent's own namespace. */
export interface PinnedSourceRef {
  kind: PinnableKind;
  name: string;
}

/** The source's revision now (undefined while it has none, or is gone). */
export async function liveSourceRevision(
  client: KubeClient,
  parent: PinningParent,
  { kind, name }: PinnedSourceRef,
): Promise<string | undefined> {
  try {
    const repo = await client.get<PinnableSource>(pathOf(SERVED_KINDS[kind], parent.metadata.namespace, name));
    return repo.status?.artifact?.revision;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** The source's spec held at `revision`: a Git commit (on the branch, if any) or an OCI manifest digest. */
export function pinnedSourceSpec(
  kind: PinnableKind,
  original: PinnableSource,
  revision: string,
): PinnableSource["spec"] {
  const digest = digestOf(revision);
  if (kind === "OCIRepository") {
    if (!/^sha256:[a-f0-9]{64}$/.test(digest))
      throw new RolloutSourceError(
        `spec.rollout cannot pin OCIRepository ${original.metadata.name} at revision "${revision}": expected <tag>@sha256:<digest> or sha256:<digest>`,
      );
    // ref.digest wins over tag and semver in source-controller; they are dropped so the pin says only that.
    return { ...(original as OCIRepository).spec, ref: { digest } };
  }
  const branch = (original as GitRepository).spec.ref?.branch;
  const commit = digest.replace(/^sha1:|^sha256:/, "");
  return { ...(original as GitRepository).spec, ref: { ...(branch ? { branch } : {}), commit } };
}

export const pinnedName = (parent: PinningParent, revision: string) =>
  `${parent.metadata.name}-${digestOf(revision)
    .replace(/^sha1:|^sha256:/, "")
    .slice(0, 10)}`;

/** The pinned copy of `source` at `revision`, created or kept; its name. */
export async function pinSource(
  client: KubeClient,
  parent: PinningParent,
  parentKind: "FleetKustomization" | "FleetHelmRelease",
  { kind, name }: PinnedSourceRef,
  revision: string,
): Promise<string> {
  const ns = parent.metadata.namespace!;
  const original = await client.get<PinnableSource>(pathOf(SERVED_KINDS[kind], ns, name));
  const pinned = pinnedName(parent, revision);
  const desired = {
    apiVersion: apiVersionOf(SERVED_KINDS[kind]),
    kind,
    metadata: {
      name: pinned,
      namespace: ns,
      // The original's labels too: a controller sharded by label (Flux's --watch-label-selector) serves the copy.
      labels: { ...original.metadata.labels, [PINNED_FROM_LABEL]: parent.metadata.name },
      ownerReferences: [
        {
          apiVersion: apiVersionOf(SERVED_KINDS[parentKind]),
          kind: parentKind,
          name: parent.metadata.name,
          uid: parent.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    // The original's spec as it is now (credentials rotated, includes changed), held at the revision.
    spec: pinnedSourceSpec(kind, original, revision),
  } as PinnableSource;
  // Already there as it would be written (every reconcile of a staged parent asks again): a read, no write.
  const existing = await client.get<PinnableSource>(pathOf(SERVED_KINDS[kind], ns, pinned)).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  if (existing && !existing.metadata.deletionTimestamp && isProvablyUnchanged(desired, existing, FLEET_FIELD_MANAGER))
    return pinned;
  await client.apply(pathOf(SERVED_KINDS[kind], ns, pinned), desired, FLEET_FIELD_MANAGER, { force: true });
  return pinned;
}

/** Pinned copies of this parent that no child reads any more, deleted (of both kinds: the template's may have changed). */
export async function sweepPinned(client: KubeClient, parent: PinningParent, inUse: Set<string>): Promise<void> {
  const ns = parent.metadata.namespace!;
  for (const kind of PINNABLE_KINDS) {
    const pinned = await client.listAll<PinnableSource>(pathOf(SERVED_KINDS[kind], ns), {
      labelSelector: `${PINNED_FROM_LABEL}=${parent.metadata.name}`,
    });
    for (const repo of pinned.items) {
      if (inUse.has(repo.metadata.name)) continue;
      await client.delete(pathOf(SERVED_KINDS[kind], ns, repo.metadata.name)).catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
    }
  }
}

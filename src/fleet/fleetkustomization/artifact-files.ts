// A FleetKustomization's fallback path needs to know whether a cluster's own directory exists in the
// revision its child will read: the source's current artifact, or — for a cluster a staged rollout holds
// at another revision — the pinned copy's. Paths are resolved inside the unpacked artifact; one that
// leaves it (a `..` in a cluster's value, a symlink) is an error, never a look outside.
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { confinedRealpath } from "../../util/confined-path.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import type { ArtifactFiles } from "../children/child-kind.js";
import { FleetError } from "../errors.js";
import { pinnedName } from "../rollout/pinned-source.js";

export class PathOutsideArtifact extends FleetError {
  override name = "PathOutsideArtifact";
}

export function filesIn(dir: string): ArtifactFiles {
  const root = realpathSync(dir);
  return {
    hasDirectory(path) {
      // Symlinks resolved inside the artifact only: a link leading out is refused, never followed out.
      const where = confinedRealpath(resolve(root, path), root);
      if ("outside" in where) throw new PathOutsideArtifact(`path "${path}" leaves the source's artifact`);
      return "real" in where && statSync(where.real).isDirectory();
    },
  };
}

export async function fleetKustomizationFiles(
  sourcesOf: () => SourceFetcher,
  fk: FleetKustomization,
  revision: string | undefined,
): Promise<ArtifactFiles | undefined> {
  if (!fk.spec.fallbackPath) return undefined;
  const sources = sourcesOf();
  const ns = fk.metadata.namespace!;
  // A staged child reads its pinned copy (made before this is asked): judge the path on exactly that revision.
  const ref = revision
    ? { kind: fk.spec.template.spec.sourceRef.kind, name: pinnedName(fk, revision) }
    : fk.spec.template.spec.sourceRef;
  return filesIn((await sources.fetch(ref, ns)).dir);
}

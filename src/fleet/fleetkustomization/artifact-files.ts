// A FleetKustomization's fallback path needs to know whether a cluster's own directory exists in the
// revision its child will read: the source's current artifact, or — for a cluster a staged rollout holds
// at another revision — the pinned copy's. Paths are resolved inside the unpacked artifact; one that
// leaves it (a `..` in a cluster's value) is an error, never a look outside.
import { statSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import type { ArtifactFiles } from "../fanout/child-kind.js";
import { FleetError } from "../errors.js";
import { digestOf } from "../rollout/plan.js";
import { pinnedName } from "./pinned-source.js";

export class PathOutsideArtifact extends FleetError {
  override name = "PathOutsideArtifact";
}

export function filesIn(dir: string): ArtifactFiles {
  const root = resolve(dir);
  return {
    hasDirectory(path) {
      const full = resolve(root, path);
      if (full !== root && !full.startsWith(root + sep))
        throw new PathOutsideArtifact(`path "${path}" leaves the source's artifact`);
      try {
        return statSync(full).isDirectory();
      } catch {
        return false;
      }
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
  const live = fk.spec.template.spec.sourceRef;
  if (revision) {
    const current = await sources.artifactOf(live, ns).catch(() => undefined);
    if (!current || digestOf(current.revision) !== digestOf(revision))
      return filesIn((await sources.fetch({ kind: "GitRepository", name: pinnedName(fk, revision) }, ns)).dir);
  }
  return filesIn((await sources.fetch(live, ns)).dir);
}

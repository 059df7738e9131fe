// spec.include: other GitRepositories' artifacts copied into this one (from `fromPath`, to `toPath`,
// which defaults to the included repository's name). The included artifacts are looked up before the
// checkout — a missing one is IncludeUnavailable, and we wait for it instead of backing off — and read
// from our own storage (or another replica's artifact server), digest-checked. An included repository's new artifact re-queues its includers
// at once (the watch below), except along an include cycle, which stays interval-driven.
import { realpathSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { confinedRealpath } from "../../util/confined-path.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import { pathOf } from "../../api/paths.js";
import { SERVED_KINDS, SOURCE_GROUP } from "../../api/kinds.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Watch } from "../../runtime/controller.js";
import { ArtifactError } from "../../sources/artifact/errors.js";
import { type ExtractedEntry, extractTarball } from "../../sources/artifact/extract.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import { fetchArtifact } from "../../sources/artifact/fetch.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { ReconcileFailure } from "../kit/failure.js";

export type Include = NonNullable<GitRepository["spec"]["include"]>[number];

/** The included repositories' current artifacts, in spec order; IncludeUnavailable when one is missing. */
export async function resolveIncludes(
  client: KubeClient,
  obj: GitRepository,
  retryAfterMs: number,
): Promise<Artifact[]> {
  const out: Artifact[] = [];
  for (const incl of obj.spec.include ?? []) {
    const name = incl.repository.name;
    let dep: GitRepository;
    try {
      dep = await client.get<GitRepository>(pathOf(SERVED_KINDS.GitRepository, obj.metadata.namespace, name));
    } catch (err) {
      const detail = err instanceof NotFoundError ? `GitRepository '${name}' not found` : (err as Error).message;
      throw new ReconcileFailure("NotFound", `could not get resource for include '${name}': ${detail}`, {
        condition: "IncludeUnavailable",
        retryAfterMs,
      });
    }
    if (!dep.status?.artifact)
      throw new ReconcileFailure("NoArtifact", `no artifact available for include '${name}'`, {
        condition: "IncludeUnavailable",
        retryAfterMs,
      });
    out.push(dep.status.artifact);
  }
  return out;
}

const clean = (p: string | undefined) => (p ?? "").replace(/^(\.\/|\/)+/, "").replace(/\/+$/, "");
export const toPathOf = (incl: Include) => clean(incl.toPath) || incl.repository.name;

/** Writes each included artifact's files under `fromPath` into `dir/<toPath>`. */
export async function copyIncludes(
  storage: Storage,
  includes: Include[],
  artifacts: Artifact[],
  dir: string,
  limits: ArtifactLimits,
): Promise<void> {
  for (const [i, incl] of includes.entries()) {
    const name = incl.repository.name;
    const to = normalize(join(dir, toPathOf(incl)));
    // Links resolved: the checkout may hold a link (toPath 'vendor' -> another tenant's directory),
    // and the files must land in this artifact, not where the link leads.
    const realDir = realpathSync.native(dir);
    if (
      (to !== dir && !to.startsWith(dir + sep)) ||
      "outside" in confinedRealpath(join(realDir, to.slice(dir.length)), realDir)
    )
      throw new ReconcileFailure(
        "IllegalPath",
        `path calculation for include '${name}' failed: '${incl.toPath}' is outside the artifact`,
        { condition: "StorageOperationFailed" },
      );
    const fail = (why: string) =>
      new ReconcileFailure(
        "CopyFailure",
        `failed to copy '${name}' include from ${incl.fromPath ?? ""} to ${toPathOf(incl)}: ${why}`,
        { condition: "StorageOperationFailed" },
      );
    const from = clean(incl.fromPath);
    // Files only (directories come with them), re-rooted at fromPath; a file named by fromPath keeps its name.
    const place = (e: ExtractedEntry) => {
      if (e.type !== "file" || (from && e.path !== from && !e.path.startsWith(`${from}/`))) return undefined;
      const rel = from ? e.path.slice(from.length).replace(/^\//, "") : e.path;
      return rel || e.path.split("/").pop()!;
    };
    let copied;
    try {
      const what = `the artifact of included GitRepository '${name}'`;
      copied = (await extractTarball(await fetchArtifact(artifacts[i]!, { storage }), to, { place, limits, what }))
        .length;
    } catch (err) {
      if (err instanceof ArtifactError) throw fail(err.message);
      throw err;
    }
    if (from && copied === 0) throw fail(`'${from}' does not exist in the artifact of '${name}'`);
  }
}

/** True when the includes in spec or their artifacts differ from what the stored artifact was built with. */
export function includesChanged(obj: GitRepository, artifacts: Artifact[]): boolean {
  const spec = obj.spec.include ?? [];
  const observed = (obj.status?.observedInclude ?? []) as Include[];
  const built = obj.status?.includedArtifacts ?? [];
  if (spec.length !== observed.length || spec.length !== built.length) return true;
  return spec.some((incl, i) => {
    const o = observed[i]!;
    return (
      incl.repository.name !== o.repository?.name ||
      (incl.fromPath ?? "") !== (o.fromPath ?? "") ||
      (incl.toPath ?? "") !== (o.toPath ?? "") ||
      artifacts[i]!.revision !== built[i]!.revision ||
      artifacts[i]!.digest !== built[i]!.digest
    );
  });
}

export const INCLUDE_INDEX = "include";
export const includeIndex = (o: KubeObject): string[] =>
  [...new Set(((o as GitRepository).spec?.include ?? []).map((i) => i.repository.name))].map(
    (n) => `${o.metadata.namespace}/${n}`,
  );

const digestOfObj = (o: KubeObject) => (o as GitRepository).status?.artifact?.digest;

/** Re-queues the includers of a repository whose artifact changed, skipping those it itself includes. */
export const includeWatch = (): Watch => ({
  kind: { group: SOURCE_GROUP, version: "v1", kind: "GitRepository" },
  predicate: (o, n) => digestOfObj(o) !== digestOfObj(n),
  map: (changed, controller) => {
    if (!digestOfObj(changed)) return [];
    const ns = changed.metadata.namespace;
    const byName = new Map(
      controller.informer
        .list()
        .filter((o) => o.metadata.namespace === ns)
        .map((o) => [o.metadata.name, o as GitRepository]),
    );
    const ancestors = new Set([changed.metadata.name]);
    const pending = [...((changed as GitRepository).spec.include ?? [])];
    while (pending.length) {
      const name = pending.shift()!.repository.name;
      if (ancestors.has(name)) continue;
      ancestors.add(name);
      pending.push(...(byName.get(name)?.spec.include ?? []));
    }
    return controller.informer
      .byIndex(INCLUDE_INDEX, `${ns}/${changed.metadata.name}`)
      .filter((o) => !ancestors.has(o.metadata.name) && !(o as GitRepository).spec.suspend)
      .map((o) => `${ns}/${o.metadata.name}`);
  },
});

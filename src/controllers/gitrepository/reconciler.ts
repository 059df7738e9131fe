// GitRepository reconciler: look up the included artifacts, resolve the ref with ls-remote, skip the
// fetch when the stored artifact already has that revision and was built with the same content
// settings, otherwise check out the one commit (sparse, with submodules), verify its signature,
// copy the includes in, archive it (Flux's exclusions), store it atomically, and report in Flux's
// conditions and events. Credentials never leave the git process; every message is masked.
import { existsSync, lstatSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { GitRepository } from "../../api/source/git-repository.js";
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { type Condition, REASONS } from "../../api/meta/conditions.js";
import type { ReconcileContext, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { createTarball } from "../../sources/artifact/tarball.js";
import { ArtifactLimitError } from "../../sources/artifact/errors.js";
import { type ArtifactLimits, checkArtifactFiles, DEFAULT_ARTIFACT_LIMITS } from "../../sources/artifact/limits.js";
import { maskUrlCredentials } from "../../sources/git/credentials.js";
import { listArtifactFiles } from "../../sources/git/ignore-rules.js";
import { parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../kit/failure.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { GIT_REPOSITORY_UNSUPPORTED } from "./unsupported-fields.js";
import type { Success } from "../kit/outcome.js";
import { SourceReconciler } from "../source-reconciler.js";
import { artifactStored, failedStep, sourceFailure } from "../source-status.js";
import { contentConfigChanged, verifyMode } from "./content-config.js";
import { copyIncludes, resolveIncludes } from "./includes.js";
import { checkoutRemote, openRemote, resolveRemote } from "./remote.js";
import { verifyCheckout } from "./verify.js";
import { makeWorkDir } from "../../util/work-dir.js";

export interface GitRepositoryReconcilerOptions {
  /** Flux's --requeue-dependency: how soon to look again for an include without an artifact. */
  requeueDependencyMs?: number;
  /** --artifact-max-size and --artifact-max-files: a checkout over them is refused, not archived. */
  artifactLimits?: ArtifactLimits;
}

interface Built {
  artifact?: Artifact;
  includes: Artifact[];
  subject: string;
  verified?: string;
}

const newArtifactEvent = (built: Built) => ({
  reason: "NewArtifact",
  message: `stored artifact for commit '${built.subject}'`,
  annotations: {
    [`${SOURCE_GROUP}/revision`]: built.artifact!.revision,
    [`${SOURCE_GROUP}/digest`]: built.artifact!.digest,
  },
});

/**
 * Refuses to archive a checkout over the limits: every consumer would refuse to unpack it, so the
 * repository's owner reads why on the GitRepository, and no artifact of that size is ever stored.
 */
function checkLimits(dir: string, files: string[], limits: ArtifactLimits, revision: string): void {
  try {
    checkArtifactFiles(dir, files, limits, `the repository at revision '${revision}'`);
  } catch (err) {
    if (!(err instanceof ArtifactLimitError)) throw err;
    throw new ReconcileFailure("ArchiveOperationFailed", `refused to archive: ${err.message}`, {
      condition: "StorageOperationFailed",
    });
  }
}

export class GitRepositoryReconciler extends SourceReconciler<GitRepository> {
  protected readonly kind = "GitRepository";

  constructor(
    cluster: Cluster,
    storage: Storage,
    events: EventRecorder,
    private readonly options: GitRepositoryReconcilerOptions = {},
  ) {
    super(cluster, storage, events);
  }

  protected async reconcileLive(obj: GitRepository, path: string, dir: string, ctx: ReconcileContext): Promise<Result> {
    let conditions: Condition[] = [...(obj.status?.conditions ?? [])];
    // A failed verification is worked out again; a successful one stands for the stored artifact.
    if (conditions.some((c) => c.type === "SourceVerified" && c.status === "False"))
      conditions = removeCondition(conditions, "SourceVerified");
    const generation = obj.metadata.generation;
    const previous = this.objects.storedArtifact(obj);
    const status: Record<string, unknown> = { ...obj.status };
    const timing = { intervalMs: parseDuration(obj.spec.interval) };
    let outcome: Success;
    try {
      refuseUnsupported(obj.spec, GIT_REPOSITORY_UNSUPPORTED);
      const built = await this.build(obj, previous, ctx);
      if (built.artifact) {
        Object.assign(status, {
          artifact: built.artifact,
          includedArtifacts: obj.spec.include?.length ? built.includes : null,
          observedInclude: obj.spec.include?.length ? obj.spec.include : null,
          observedIgnore: obj.spec.ignore ?? null,
          observedRecurseSubmodules: obj.spec.recurseSubmodules ?? null,
          observedSparseCheckout: obj.spec.sparseCheckout?.length ? obj.spec.sparseCheckout : null,
          sourceVerificationMode: verifyMode(obj) ?? null,
        });
        this.storage.garbageCollect(dir, built.artifact.path);
      } else status.artifact = previous;
      if (built.verified)
        conditions = setCondition(conditions, {
          type: "SourceVerified",
          status: "True",
          reason: REASONS.succeeded,
          message: built.verified,
          observedGeneration: generation,
        });
      else if (!verifyMode(obj)) conditions = removeCondition(conditions, "SourceVerified");
      const message = `stored artifact for revision '${(status.artifact as Artifact).revision}'`;
      conditions = artifactStored(conditions, generation, REASONS.succeeded, message);
      const isNew = built.artifact && built.artifact.digest !== previous?.digest;
      outcome = { reason: REASONS.succeeded, message, event: isNew ? newArtifactEvent(built) : undefined };
    } catch (err) {
      const failure = sourceFailure(err, (m) => new ReconcileFailure(REASONS.failed, maskUrlCredentials(m)));
      conditions = failedStep(conditions, generation, failure);
      const report = { outcome: failure, conditions, status: { ...status, artifact: previous }, timing };
      return this.finisher.finish(obj, path, ctx, report);
    }
    return this.finisher.finish(obj, path, ctx, { outcome, conditions, status, timing });
  }

  /** Resolves and, when the revision or the content settings changed, fetches and stores. */
  private async build(obj: GitRepository, previous: Artifact | undefined, ctx: ReconcileContext): Promise<Built> {
    const work = makeWorkDir("git-");
    try {
      const remote = await openRemote(this.cluster.client, obj, work);
      const includes = await resolveIncludes(this.cluster.client, obj, this.options.requeueDependencyMs ?? 30_000);
      const resolved = await resolveRemote(remote, obj);
      if (
        previous &&
        resolved.cheapCheck &&
        previous.revision === resolved.revision &&
        !contentConfigChanged(obj, includes)
      ) {
        ctx.log.info(`no changes since last reconciliation: observed revision '${resolved.revision}'`);
        return { includes, subject: "" };
      }
      const checkoutDir = join(work, "checkout");
      const { commit, subject } = await checkoutRemote(remote, resolved, checkoutDir, {
        recurseSubmodules: obj.spec.recurseSubmodules,
        sparseCheckout: obj.spec.sparseCheckout,
      });
      for (const d of obj.spec.sparseCheckout ?? []) {
        if (!existsSync(join(checkoutDir, d)) || !lstatSync(join(checkoutDir, d)).isDirectory())
          throw new ReconcileFailure(
            "GitOperationFailed",
            `failed to sparse checkout directories : sparse checkout dir '${d}' does not exist in repository`,
          );
      }
      const verified = await verifyCheckout(this.cluster.client, obj, remote, checkoutDir, resolved, commit);
      const revision = resolved.revision.replace(/sha1:[0-9a-f]+$/, `sha1:${commit}`);
      const limits = this.options.artifactLimits ?? DEFAULT_ARTIFACT_LIMITS;
      await copyIncludes(this.storage, obj.spec.include ?? [], includes, checkoutDir, limits);
      const files = listArtifactFiles(checkoutDir, obj.spec.ignore);
      checkLimits(checkoutDir, files, limits, revision);
      const tarball = createTarball(checkoutDir, files);
      const relPath = `${this.storage.objectDir("GitRepository", obj.metadata.namespace!, obj.metadata.name)}/${commit}.tar.gz`;
      return { artifact: this.storage.store(relPath, tarball, revision), includes, subject, verified };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

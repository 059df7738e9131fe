// OCIRepository reconciler: resolve spec.ref to a manifest digest (one small manifest read); when the
// stored artifact already has that revision and was built with the same ignore rules and layer
// selector, stop there — nothing downloaded, nothing rewritten. Otherwise pull the selected layer,
// store it (extracted and archived again, or copied) as `<kind>/<ns>/<name>/sha256:<hex>.tar.gz`, and
// report as source-controller does: ArtifactInStorage "stored artifact for digest '<revision>'",
// FetchFailed naming the failing step, ArtifactOutdated when a newer revision could not be stored,
// a NewArtifact event with the artifact's origin. A failure keeps the previous artifact.
import type { Artifact } from "../../api/meta/artifact.js";
import { type Condition, REASONS } from "../../api/meta/conditions.js";
import { SERVED_KINDS, SOURCE_GROUP } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import type { Cluster } from "../../kube/cluster.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS } from "../../sources/artifact/limits.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { RegistryClient } from "../../sources/oci/client.js";
import { REVISION_ANNOTATION, SOURCE_ANNOTATION } from "../../sources/oci/manifest.js";
import { parseDuration } from "../../util/duration.js";
import { objectTimeout } from "../../util/object-timeout.js";
import { ReconcileFailure } from "../kit/failure.js";
import { Finisher } from "../kit/finish.js";
import type { Success } from "../kit/outcome.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { SourceObjects } from "../source-objects.js";
import { artifactStored, failedStep, sourceFailure } from "../source-status.js";
import { contentConfigChanged } from "./content-config.js";
import { layerContent } from "./layer-content.js";
import { registryOptions } from "./registry-access.js";
import { repositoryOf, type Resolved, resolve } from "./resolve.js";
import { OCI_REPOSITORY_UNSUPPORTED } from "./unsupported-fields.js";
import { verifyCosign } from "./verify.js";

export interface OCIRepositoryReconcilerOptions {
  /** --artifact-max-size and --artifact-max-files: a layer over them is refused, not stored. */
  artifactLimits?: ArtifactLimits;
}

/** Flux's NewArtifact message: the revision and URL, and the origin the artifact's annotations name. */
function newArtifactEvent(obj: OCIRepository, artifact: Artifact) {
  const source = artifact.metadata?.[SOURCE_ANNOTATION];
  const revision = artifact.metadata?.[REVISION_ANNOTATION];
  const origin = source && revision ? `, origin source '${source}', origin revision '${revision}'` : "";
  return {
    reason: "NewArtifact",
    message: `stored artifact with revision '${artifact.revision}' from '${obj.spec.url}'${origin}`,
    annotations: {
      [`${SOURCE_GROUP}/revision`]: artifact.revision,
      [`${SOURCE_GROUP}/digest`]: artifact.digest,
    },
  };
}

/** Flux's FailureRecovery: the last reconcile left FetchFailed or StorageOperationFailed. */
const recovered = (obj: OCIRepository) =>
  (obj.status?.conditions ?? []).some(
    (c) => (c.type === "FetchFailed" || c.type === "StorageOperationFailed") && c.status === "True",
  );

/**
 * Closes the client's connections without holding the worker: a close waits for every response body
 * to be read, and a reconcile must never hang on a connection it is done with (idle ones also close
 * by themselves after a few seconds).
 */
function release(client: RegistryClient, ctx: ReconcileContext): void {
  const slow = setTimeout(() => ctx.log.info("registry connections still closing after 10s"), 10_000);
  slow.unref();
  void client
    .close()
    .catch(() => undefined)
    .finally(() => clearTimeout(slow));
}

export class OCIRepositoryReconciler implements Reconciler {
  private readonly objects: SourceObjects<OCIRepository>;
  private readonly finisher: Finisher<OCIRepository>;

  constructor(
    private readonly cluster: Cluster,
    readonly storage: Storage,
    events: EventRecorder,
    private readonly options: OCIRepositoryReconcilerOptions = {},
  ) {
    this.objects = new SourceObjects(cluster, storage);
    this.finisher = new Finisher(this.objects, events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.OCIRepository, req.namespace, req.name);
    const dir = this.storage.objectDir("OCIRepository", req.namespace, req.name);
    const obj = await this.objects.prepare(path, dir, ctx.cached);
    if (!obj) return;
    if (obj.spec.suspend) return this.finisher.suspended(obj, path, ctx);
    const generation = obj.metadata.generation;
    const previous = this.objects.storedArtifact(obj);
    const timing = { intervalMs: parseDuration(obj.spec.interval) };
    let conditions: Condition[] = [...(obj.status?.conditions ?? [])];
    // A failed verification is worked out again; a successful one stands for the stored artifact.
    if (conditions.some((c) => c.type === "SourceVerified" && c.status === "False"))
      conditions = removeCondition(conditions, "SourceVerified");
    let resolved: Resolved | undefined;
    let artifact = previous;
    let isNew = false;
    try {
      refuseUnsupported(obj.spec, OCI_REPOSITORY_UNSUPPORTED);
      const repo = repositoryOf(obj);
      const timeoutMs = objectTimeout(obj.spec.timeout, "60s").ms; // capped by --max-object-timeout
      const client = new RegistryClient(
        repo.registry,
        await registryOptions(this.cluster.client, obj, repo.registry, timeoutMs),
      );
      try {
        resolved = await resolve(client, obj, repo);
        conditions = await this.verified(conditions, client, obj, resolved, previous);
        if (previous?.revision === resolved.revision && !contentConfigChanged(obj)) {
          ctx.log.info(`artifact up-to-date with remote revision: '${resolved.revision}'`);
        } else {
          const limits = this.options.artifactLimits ?? DEFAULT_ARTIFACT_LIMITS;
          const content = await layerContent(client, obj, resolved, limits);
          const file = `${dir}/${resolved.digest}.tar.gz`;
          artifact = this.storage.store(file, content, resolved.revision);
          if (resolved.manifest.annotations) artifact.metadata = resolved.manifest.annotations;
          this.storage.garbageCollect(dir, file);
          isNew = artifact.digest !== previous?.digest;
        }
      } finally {
        release(client, ctx);
      }
    } catch (err) {
      const failure = sourceFailure(err, (m) => new ReconcileFailure(REASONS.failed, m));
      conditions = failedStep(conditions, generation, failure);
      if (previous && resolved && previous.revision !== resolved.revision)
        conditions = setCondition(conditions, {
          type: "ArtifactOutdated",
          status: "True",
          reason: "NewRevision",
          message: `new revision '${resolved.revision}' for '${resolved.name}'`,
          observedGeneration: generation,
        });
      // The previous artifact (and what it was built from) stays: consumers keep applying it.
      const status = { artifact: previous ?? null, url: previous?.url ?? null };
      return this.finisher.finish(obj, path, ctx, { outcome: failure, conditions, status, timing });
    }
    const message = `stored artifact for digest '${artifact!.revision}'`;
    conditions = artifactStored(conditions, generation, REASONS.succeeded, message);
    const outcome: Success = {
      reason: REASONS.succeeded,
      message,
      // Flux tells of a new artifact, and of a recovery from a failed fetch or store (reason Succeeded).
      event: isNew
        ? newArtifactEvent(obj, artifact!)
        : recovered(obj)
          ? { ...newArtifactEvent(obj, artifact!), reason: REASONS.succeeded }
          : undefined,
    };
    const status = {
      artifact,
      url: artifact!.url,
      observedIgnore: obj.spec.ignore ?? null,
      observedLayerSelector: obj.spec.layerSelector ?? null,
    };
    return this.finisher.finish(obj, path, ctx, { outcome, conditions, status, timing });
  }

  /**
   * SourceVerified as source-controller keeps it: checked again for a new revision, a new generation or
   * after a failure (the signature is read before the artifact is pulled); dropped without spec.verify.
   */
  private async verified(
    conditions: Condition[],
    client: RegistryClient,
    obj: OCIRepository,
    resolved: Resolved,
    previous: Artifact | undefined,
  ): Promise<Condition[]> {
    if (!obj.spec.verify) return removeCondition(conditions, "SourceVerified");
    const generation = obj.metadata.generation;
    const current = conditions.find((c) => c.type === "SourceVerified");
    if (
      previous?.revision === resolved.revision &&
      current?.status === "True" &&
      current.observedGeneration === generation
    )
      return conditions;
    const message = await verifyCosign(this.cluster.client, client, obj, resolved);
    const verified = { type: "SourceVerified", status: "True" as const, reason: REASONS.succeeded, message };
    return setCondition(conditions, { ...verified, observedGeneration: generation });
  }
}

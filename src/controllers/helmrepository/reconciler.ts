// HelmRepository reconciler: download index.yaml (with the secret's basic auth), revision = sha256
// of the raw index; when it changed, store the parsed index (as JSON, like Flux) as the artifact.
import { objectTimeout } from "../../util/object-timeout.js";
import { parseDuration } from "../../util/duration.js";
import { createHash } from "node:crypto";
import type { HelmRepository } from "../../api/source/helm.js";
import { REASONS } from "../../api/meta/conditions.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import { maskUrlCredentials } from "../../sources/git/credentials.js";
import { type BasicAuth, download, normalizeRepoUrl, parseIndex } from "../../sources/helm/index.js";
import { repositoryAuth } from "../../sources/helm/repository-auth.js";
import { repositoryTls, type TlsMaterial } from "../../sources/helm/tls.js";
import { ReconcileFailure } from "../kit/failure.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { HELM_REPOSITORY_UNSUPPORTED } from "./unsupported-fields.js";
import { isStaticOci, keepStatic } from "./oci-static.js";
import type { Success } from "../kit/outcome.js";
import { SourceReconciler } from "../source-reconciler.js";
import { artifactStored, failedStep, sourceFailure } from "../source-status.js";

const MAX_INDEX_BYTES = 50 * 1024 * 1024;

export class HelmRepositoryReconciler extends SourceReconciler<HelmRepository> {
  protected readonly kind = "HelmRepository";

  override async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    // Read before the finalizer is added: an OCI repository never gets one.
    const path = pathOf(SERVED_KINDS.HelmRepository, req.namespace, req.name);
    const repo = await this.objects.read(path, ctx.cached);
    if (repo && isStaticOci(repo)) return keepStatic(this.objects, this.storage, repo, path);
    return super.reconcile(req, ctx);
  }

  protected async reconcileLive(
    repo: HelmRepository,
    path: string,
    dir: string,
    ctx: ReconcileContext,
  ): Promise<Result> {
    const timing = { intervalMs: repo.spec.interval ? parseDuration(repo.spec.interval) : 60_000 };
    const generation = repo.metadata.generation;
    const conditions = repo.status?.conditions ?? [];
    const previous = this.objects.storedArtifact(repo);
    let artifact = previous;
    let outcome: Success;
    try {
      // An oci:// URL without type oci: Stalled saying so, rather than failing to find an index.
      refuseUnsupported(repo.spec, HELM_REPOSITORY_UNSUPPORTED);
      const { auth, tls } = await this.credentials(repo);
      const url = normalizeRepoUrl(repo.spec.url);
      const raw = await download(
        `${url}index.yaml`,
        auth,
        objectTimeout(repo.spec.timeout, "60s").ms, // capped by --max-object-timeout
        MAX_INDEX_BYTES,
        tls,
      );
      const revision = `sha256:${createHash("sha256").update(raw).digest("hex")}`;
      const isNew = previous?.revision !== revision;
      if (isNew) {
        const index = parseIndex(raw);
        const file = `${dir}/index-${revision.slice("sha256:".length)}.yaml`;
        artifact = this.storage.store(file, Buffer.from(JSON.stringify(index, null, 2)), revision);
        this.storage.garbageCollect(dir, file);
      }
      const message = `stored artifact: revision '${revision}'`;
      const event = {
        reason: "NewArtifact",
        message: `stored fetched index of size ${raw.length} bytes from '${maskUrlCredentials(repo.spec.url)}'`,
      };
      outcome = { reason: REASONS.succeeded, message, event: isNew ? event : undefined };
    } catch (err) {
      const failure = sourceFailure(
        err,
        (m) => new ReconcileFailure(REASONS.failed, `failed to fetch Helm repository index: ${maskUrlCredentials(m)}`),
      );
      const report = {
        conditions: failedStep(conditions, generation, failure),
        status: { artifact: previous },
        timing,
      };
      return this.finisher.finish(repo, path, ctx, { ...report, outcome: failure });
    }
    const status = { artifact, url: artifact!.url };
    const stored = artifactStored(conditions, generation, outcome.reason, outcome.message);
    return this.finisher.finish(repo, path, ctx, { outcome, conditions: stored, status, timing });
  }

  private async credentials(repo: HelmRepository): Promise<{ auth?: BasicAuth; tls?: TlsMaterial }> {
    try {
      return { auth: await repositoryAuth(this.cluster, repo), tls: await repositoryTls(this.cluster, repo) };
    } catch (err) {
      const secret = repo.spec.certSecretRef?.name ?? repo.spec.secretRef?.name;
      throw new ReconcileFailure(
        "AuthenticationFailed",
        `failed to get authentication secret '${repo.metadata.namespace}/${secret}': ${(err as Error).message}`,
      );
    }
  }
}

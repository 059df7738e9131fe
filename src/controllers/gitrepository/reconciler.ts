// GitRepository reconciler: resolve the ref with ls-remote, skip the fetch when the stored artifact
// already has that revision, otherwise fetch the one commit, archive it (Flux's exclusions), store it
// atomically, and report in Flux's conditions and events. Credentials never leave the git process:
// URL userinfo is stripped and moved into headers, and every message is masked.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GitRepository, SOURCE_GROUP } from "../../api/source/git-repository.js";
import type { Cluster } from "../../kube/cluster.js";
import { REASONS } from "../../runtime/conditions.js";
import {
  REQUESTED_AT_ANNOTATION,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Artifact, Storage } from "../../sources/artifact/storage.js";
import { createTarball } from "../../sources/artifact/tarball.js";
import { checkout } from "../../sources/git/checkout.js";
import {
  authFromSecretData,
  GitAuthError,
  gitAuthEnv,
  maskUrlCredentials,
  stripUrlCredentials,
} from "../../sources/git/credentials.js";
import { GitCommandError, runGit } from "../../sources/git/git-cli.js";
import { listArtifactFiles } from "../../sources/git/ignore-rules.js";
import { parseLsRemote, RefNotFoundError, resolveRef } from "../../sources/git/refs.js";
import { parseDuration } from "../../util/duration.js";
import { failed, prepare, succeeded } from "../source-status.js";

class FetchFailure extends Error {
  constructor(
    readonly reason: "GitOperationFailed" | "AuthenticationFailed" | "URLInvalid",
    message: string,
  ) {
    super(message);
  }
}

export class GitRepositoryReconciler implements Reconciler {
  constructor(
    private readonly cluster: Cluster,
    readonly storage: Storage,
    private readonly events: EventRecorder,
  ) {}

  private path(ns: string, name: string): string {
    return `/apis/${SOURCE_GROUP}/v1/namespaces/${ns}/gitrepositories/${name}`;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = this.path(req.namespace, req.name);
    const dir = this.storage.objectDir("GitRepository", req.namespace, req.name);
    const obj = await prepare<GitRepository>(this.cluster, path, this.storage, dir);
    if (!obj) return;
    if (obj.spec.suspend) {
      ctx.log.info("reconciliation is suspended for this object");
      return;
    }
    const interval = parseDuration(obj.spec.interval);
    let conditions = [...(obj.status?.conditions ?? [])];
    const generation = obj.metadata.generation;
    const previous = obj.status?.artifact && this.storage.exists(obj.status.artifact) ? obj.status.artifact : undefined;
    const status = {
      ...obj.status,
      lastHandledReconcileAt: obj.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? obj.status?.lastHandledReconcileAt,
    };
    try {
      const outcome = await this.fetch(obj, previous, ctx);
      if (outcome.artifact) {
        status.artifact = outcome.artifact;
        status.observedIgnore = obj.spec.ignore;
        this.storage.garbageCollect(dir, outcome.artifact.path);
      } else status.artifact = previous;
      const message = `stored artifact for revision '${status.artifact!.revision}'`;
      conditions = succeeded(conditions, generation, REASONS.succeeded, message);
      await this.patchStatus(path, { ...status, conditions, observedGeneration: generation });
      if (outcome.artifact && outcome.artifact.digest !== previous?.digest) {
        await this.events.record(obj, "Normal", "NewArtifact", `stored artifact for commit '${outcome.subject}'`, {
          [`${SOURCE_GROUP}/revision`]: outcome.artifact.revision,
          [`${SOURCE_GROUP}/digest`]: outcome.artifact.digest,
        });
      }
      return { requeueAfterMs: interval };
    } catch (err) {
      const failure =
        err instanceof FetchFailure
          ? err
          : new FetchFailure(
              "GitOperationFailed",
              `failed to checkout and determine revision: ${maskUrlCredentials((err as Error).message)}`,
            );
      conditions = failed(conditions, generation, failure.reason, failure.message);
      await this.patchStatus(path, { ...status, artifact: previous, conditions, observedGeneration: generation });
      await this.events.record(obj, "Warning", failure.reason, failure.message);
      throw failure;
    }
  }

  private async patchStatus(path: string, status: Record<string, unknown>): Promise<void> {
    await this.cluster.client.patch(`${path}/status`, "merge", { status });
  }

  private async auth(obj: GitRepository) {
    if (!obj.spec.secretRef) return authFromSecretData(undefined);
    const ref = `${obj.metadata.namespace}/${obj.spec.secretRef.name}`;
    try {
      const secret = await this.cluster.client.get<{ data?: Record<string, string> }>(
        `/api/v1/namespaces/${obj.metadata.namespace}/secrets/${obj.spec.secretRef.name}`,
      );
      return authFromSecretData(secret.data);
    } catch (err) {
      throw new FetchFailure(
        "AuthenticationFailed",
        `failed to get secret '${ref}': ${(err as Error).message.replace(/^[^:]+: /, "")}`,
      );
    }
  }

  /** Resolves and, when the revision changed, fetches and stores. No artifact = unchanged. */
  private async fetch(obj: GitRepository, previous: Artifact | undefined, ctx: ReconcileContext) {
    const { url: cleanUrl, username, password } = stripUrlCredentials(obj.spec.url);
    let scheme: string;
    try {
      scheme = new URL(cleanUrl).protocol.replace(/:$/, "");
    } catch (err) {
      throw new FetchFailure(
        "URLInvalid",
        `failed to parse url '${maskUrlCredentials(obj.spec.url)}': ${(err as Error).message}`,
      );
    }
    const auth = await this.auth(obj);
    auth.username ??= username;
    auth.password ??= password;
    const timeoutMs = parseDuration(obj.spec.timeout ?? "60s");
    const work = mkdtempSync(join(tmpdir(), "flotilla-git-"));
    try {
      let env: Record<string, string>;
      try {
        env = gitAuthEnv(scheme, auth, work);
      } catch (err) {
        if (err instanceof GitAuthError)
          throw new FetchFailure("AuthenticationFailed", `failed to configure authentication options: ${err.message}`);
        throw err;
      }
      const masked = maskUrlCredentials(obj.spec.url);
      const git = { env, home: work, timeoutMs };
      let refs;
      try {
        refs = parseLsRemote(await runGit(["ls-remote", cleanUrl], git));
      } catch (err) {
        if (err instanceof GitCommandError && err.authFailure) {
          throw new FetchFailure(
            "AuthenticationFailed",
            `failed to checkout and determine revision: unable to list remote for '${masked}': ${err.message}`,
          );
        }
        throw new FetchFailure(
          "GitOperationFailed",
          `failed to checkout and determine revision: unable to list remote for '${masked}': ${(err as Error).message}`,
        );
      }
      let resolved;
      try {
        resolved = resolveRef(obj.spec.ref, refs);
      } catch (err) {
        if (err instanceof RefNotFoundError)
          throw new FetchFailure(
            "GitOperationFailed",
            `failed to checkout and determine revision: unable to clone '${masked}': ${err.message}`,
          );
        throw err;
      }
      if (
        previous &&
        resolved.cheapCheck &&
        previous.revision === resolved.revision &&
        (obj.status?.observedIgnore ?? "") === (obj.spec.ignore ?? "")
      ) {
        ctx.log.info(`no changes since last reconciliation: observed revision '${resolved.revision}'`);
        return { artifact: undefined, subject: "" };
      }
      const checkoutDir = join(work, "checkout");
      const commit = await checkout(resolved, { url: cleanUrl, dir: checkoutDir, ...git });
      const revision = resolved.revision.replace(/sha1:[0-9a-f]+$/, `sha1:${commit}`);
      const subject = (await runGit(["log", "-1", "--format=%s"], { ...git, cwd: checkoutDir })).trim();
      const tarball = createTarball(checkoutDir, listArtifactFiles(checkoutDir, obj.spec.ignore));
      const relPath = `${this.storage.objectDir("GitRepository", obj.metadata.namespace!, obj.metadata.name)}/${commit}.tar.gz`;
      const artifact = this.storage.store(relPath, tarball, revision);
      return { artifact, subject: [...subject].length > 50 ? `${[...subject].slice(0, 50).join("")}...` : subject };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

// HelmRepository reconciler: download index.yaml (with the secret's basic auth), revision = sha256
// of the raw index; when it changed, store the parsed index (as JSON, like Flux) as the artifact.
import { createHash } from "node:crypto";
import type { HelmRepository } from "../../api/source/helm.js";
import { SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { maskUrlCredentials } from "../../sources/git/credentials.js";
import { type BasicAuth, download, normalizeRepoUrl, parseIndex } from "../../sources/helm/index.js";
import { repositoryTls, type TlsMaterial } from "../../sources/helm/tls.js";
import { parseDuration } from "../../util/duration.js";
import { SourceObjects } from "../source-objects.js";
import { failed, succeeded } from "../source-status.js";

const MAX_INDEX_BYTES = 50 * 1024 * 1024;

export async function repositoryAuth(cluster: Cluster, repo: HelmRepository): Promise<BasicAuth | undefined> {
  if (!repo.spec.secretRef) return undefined;
  const secret = await cluster.client.get<{ data?: Record<string, string> }>(
    pathOf(USED_KINDS.Secret, repo.metadata.namespace, repo.spec.secretRef.name),
  );
  const get = (k: string) => (secret.data?.[k] ? Buffer.from(secret.data[k]!, "base64").toString("utf8") : undefined);
  const [username, password] = [get("username"), get("password")];
  if (!username !== !password)
    throw new Error(`invalid '${repo.spec.secretRef.name}' secret data: required fields 'username' and 'password'`);
  return username ? { username, password: password! } : undefined;
}

export class HelmRepositoryReconciler implements Reconciler {
  private readonly objects: SourceObjects<HelmRepository>;

  constructor(
    private readonly cluster: Cluster,
    readonly storage: Storage,
    private readonly events: EventRecorder,
  ) {
    this.objects = new SourceObjects(cluster, storage);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.HelmRepository, req.namespace, req.name);
    const dir = this.storage.objectDir("HelmRepository", req.namespace, req.name);
    const repo = await this.objects.prepare(path, dir, ctx.cached);
    if (!repo || repo.spec.suspend || repo.spec.type === "oci") return;
    const interval = repo.spec.interval ? parseDuration(repo.spec.interval) : 60_000;
    const generation = repo.metadata.generation;
    const base = {
      lastHandledReconcileAt:
        repo.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? repo.status?.lastHandledReconcileAt,
    };
    const previous =
      repo.status?.artifact && this.storage.exists(repo.status.artifact) ? repo.status.artifact : undefined;
    let auth: BasicAuth | undefined;
    let tls: TlsMaterial | undefined;
    try {
      auth = await repositoryAuth(this.cluster, repo);
      tls = await repositoryTls(this.cluster, repo);
    } catch (err) {
      const secret = repo.spec.certSecretRef?.name ?? repo.spec.secretRef?.name;
      const message = `failed to get authentication secret '${repo.metadata.namespace}/${secret}': ${(err as Error).message}`;
      await this.objects.patchStatus(repo, path, {
        ...base,
        conditions: failed(repo.status?.conditions, generation, "AuthenticationFailed", message),
        observedGeneration: generation,
      });
      await this.events.record(repo, "Warning", "AuthenticationFailed", message);
      throw err;
    }
    try {
      const url = normalizeRepoUrl(repo.spec.url);
      const raw = await download(
        `${url}index.yaml`,
        auth,
        repo.spec.timeout ? parseDuration(repo.spec.timeout) : 60_000,
        MAX_INDEX_BYTES,
        tls,
      );
      const revision = `sha256:${createHash("sha256").update(raw).digest("hex")}`;
      let artifact = previous;
      if (previous?.revision !== revision) {
        const index = parseIndex(raw);
        const file = `${dir}/index-${revision.slice("sha256:".length)}.yaml`;
        artifact = this.storage.store(file, Buffer.from(JSON.stringify(index, null, 2)), revision);
        this.storage.garbageCollect(dir, file);
        await this.events.record(
          repo,
          "Normal",
          "NewArtifact",
          `stored fetched index of size ${raw.length} bytes from '${maskUrlCredentials(repo.spec.url)}'`,
        );
      }
      const message = `stored artifact: revision '${revision}'`;
      await this.objects.patchStatus(repo, path, {
        ...base,
        artifact,
        url: artifact!.url,
        conditions: succeeded(repo.status?.conditions, generation, "Succeeded", message),
        observedGeneration: generation,
      });
      return { requeueAfterMs: interval };
    } catch (err) {
      const message = `failed to fetch Helm repository index: ${maskUrlCredentials((err as Error).message)}`;
      ctx.log.error(message);
      await this.objects.patchStatus(repo, path, {
        ...base,
        artifact: previous,
        conditions: failed(repo.status?.conditions, generation, "Failed", message),
        observedGeneration: generation,
      });
      await this.events.record(repo, "Warning", "Failed", message);
      throw new Error(message);
    }
  }
}

// Helm's own release storage on the target cluster (Secrets `sh.helm.release.v1.<name>.v<N>`, type
// helm.sh/release.v1, labels name/owner=helm/status/version), read and written with flotilla's kube
// client — so deciding what to do runs no helm process, and `helm ls` shows what flotilla did.
import { parseAllDocuments } from "yaml";
import { pathOf } from "../../../api/paths.js";
import { USED_KINDS } from "../../../api/kinds.js";
import type { KubeClient } from "../../../kube/client.js";
import { decodeRelease, encodeRelease } from "./codec.js";

export { isTestHook, observationDigest } from "./observation.js";

export type { StoredHook, StoredRelease } from "./types.js";
import type { StoredRelease } from "./types.js";

interface ReleaseSecret {
  metadata: { name: string; namespace: string; labels?: Record<string, string>; resourceVersion?: string };
  type?: string;
  data?: { release?: string };
}

const PENDING = new Set(["pending-install", "pending-upgrade", "pending-rollback"]);
export const isPending = (r: StoredRelease): boolean => PENDING.has(r.info.status);

/** The releases of one name in one storage namespace of the target cluster. */
export class ReleaseStorage {
  constructor(
    readonly client: KubeClient,
    readonly namespace: string,
  ) {}

  private async secrets(name: string): Promise<ReleaseSecret[]> {
    const list = await this.client.get<{ items: ReleaseSecret[] }>(pathOf(USED_KINDS.Secret, this.namespace), {
      labelSelector: `owner=helm,name=${name}`,
    });
    return list.items.filter((s) => s.type === "helm.sh/release.v1" && s.data?.release);
  }

  /** Every stored revision of `name`, oldest first; [] when there is none. */
  async history(name: string): Promise<StoredRelease[]> {
    const releases = (await this.secrets(name)).map((s) => decodeRelease(s.data!.release!) as unknown as StoredRelease);
    return releases.sort((a, b) => a.version - b.version);
  }

  /** The newest revision of `name`, or undefined. */
  async last(name: string): Promise<StoredRelease | undefined> {
    return (await this.history(name)).at(-1);
  }

  /**
   * Marks a release stuck in pending-* (its helm was killed mid-operation) as failed, as
   * helm-controller's unlock does, so the next helm upgrade is not refused with "another operation is
   * in progress". The record's data and its status label are rewritten together.
   */
  async unlock(release: StoredRelease): Promise<void> {
    const secretName = `sh.helm.release.v1.${release.name}.v${release.version}`;
    const path = pathOf(USED_KINDS.Secret, this.namespace, secretName);
    const secret = await this.client.get<ReleaseSecret>(path);
    const stored = decodeRelease(secret.data!.release!) as unknown as StoredRelease;
    if (!isPending(stored)) return; // finished meanwhile
    const was = stored.info.status;
    stored.info.status = "failed";
    stored.info.description = `Release unlocked from stale '${was}' state`;
    secret.data = { ...secret.data, release: encodeRelease(stored) };
    secret.metadata.labels = { ...secret.metadata.labels, status: "failed" };
    await this.client.update(path, secret); // resourceVersion kept: a concurrent helm wins, we retry later
    release.info.status = "failed";
    release.info.description = stored.info.description;
  }
}

/**
 * Recently parsed manifests, as JSON text: one reconcile reads a release's objects up to four times
 * (cluster scopes, inventory, drift, and again after an action), and parsing YAML was the controller's
 * largest cost per HelmRelease (decision 0042, "Where the CPU went"). Each caller gets fresh objects
 * (JSON.parse is an order of magnitude cheaper than the YAML parser), so a caller may mutate them.
 */
const parsedManifests = new Map<string, string>();
const PARSED_MANIFESTS_KEPT = 256;

/** The objects of the release manifest (hooks are kept apart by Helm), as parsed YAML documents. */
export function manifestObjects(release: StoredRelease): Record<string, unknown>[] {
  const manifest = release.manifest ?? "";
  let json = parsedManifests.get(manifest);
  if (json === undefined) {
    const objects = parseAllDocuments(manifest)
      .map((d) => d.toJSON() as unknown)
      .filter((o): o is Record<string, unknown> => typeof o === "object" && o !== null && !Array.isArray(o));
    json = JSON.stringify(objects);
    if (parsedManifests.size >= PARSED_MANIFESTS_KEPT) parsedManifests.delete(parsedManifests.keys().next().value!);
  } else parsedManifests.delete(manifest); // re-inserted below: the most recently used is kept longest
  parsedManifests.set(manifest, json);
  return JSON.parse(json) as Record<string, unknown>[];
}

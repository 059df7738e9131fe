// CONTRACT STUB (is12-base): owned by the storage helper, who replaces the bodies.
// Helm's own release storage on the target cluster (Secrets `sh.helm.release.v1.<name>.v<N>`, type
// helm.sh/release.v1, data.release = base64(gzip(JSON))), read and written with flotilla's kube client —
// so deciding what to do runs no helm process.
import type { KubeClient } from "../../../kube/client.js";

export interface StoredHook {
  name: string;
  kind: string;
  path: string;
  manifest: string;
  events?: string[];
  last_run?: { started_at?: string; completed_at?: string; phase?: string };
}

/** A Helm release as Helm stores it (helm pkg/release/v1 Release, JSON field names). */
export interface StoredRelease {
  name: string;
  namespace: string;
  version: number;
  info: {
    status: string;
    first_deployed?: string;
    last_deployed?: string;
    deleted?: string;
    description?: string;
    notes?: string;
  };
  chart: { metadata: { name: string; version: string; appVersion?: string } };
  config?: Record<string, unknown>;
  manifest?: string;
  hooks?: StoredHook[];
  apply_method?: string;
}

/** The releases of one name in one storage namespace of the target cluster. */
export class ReleaseStorage {
  constructor(
    readonly client: KubeClient,
    readonly namespace: string,
  ) {}

  /** Every stored revision of `name`, oldest first; [] when there is none. */
  history(_name: string): Promise<StoredRelease[]> {
    throw new Error("not implemented");
  }

  /** The newest revision of `name`, or undefined. */
  last(_name: string): Promise<StoredRelease | undefined> {
    throw new Error("not implemented");
  }

  /** Marks a release stuck in pending-* as failed, as helm-controller's unlock does (description says so). */
  unlock(_release: StoredRelease): Promise<void> {
    throw new Error("not implemented");
  }
}

/** helm-controller's digest of a release "observation" (HC internal/release/observation.go): "sha256:<hex>". */
export function observationDigest(_release: StoredRelease): string {
  throw new Error("not implemented");
}

/** The objects of the release manifest (hooks excluded), as parsed YAML documents. */
export function manifestObjects(_release: StoredRelease): Record<string, unknown>[] {
  throw new Error("not implemented");
}

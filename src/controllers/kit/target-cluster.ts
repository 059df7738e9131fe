// Where a Kustomization applies: this cluster, or the one in its kubeConfig Secret (re-read every
// reconcile, so rotated credentials are picked up), as its service account there if it has one.
// Flux looks the kubeconfig up by key, else "value", else "value.yaml". An apply through the Secret of
// a WriteLimited Kamaji plane is held instead of failing (kit/tenant-plane.ts, decision 0044).
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { Cluster } from "../../kube/cluster.js";
import { ConnectionError, NotFoundError, UnauthorizedError } from "../../kube/errors.js";
import { endpointFromKubeconfig } from "../../kube/kubeconfig.js";
import type { KubeObject } from "../../api/meta/object.js";
import { ReconcileFailure } from "./failure.js";
import { holdIfWriteLimited } from "./tenant-plane.js";
import { KUBECONFIG_CONFIGMAP_REF } from "./shared-refusals.js";
import { refuseUnsupported } from "./unsupported.js";

/** The kubeconfig Secret of a remote cluster is gone: during deletion that means the cluster is gone too. */
export class KubeconfigSecretNotFound extends ReconcileFailure {
  override name = "KubeconfigSecretNotFound";
  constructor(readonly secret: string) {
    super("ReconciliationFailed", `failed to get kubeconfig secret '${secret}': not found`);
  }
}

/** What targeting a cluster needs of an object, whatever its kind (Kustomization, HelmRelease). */
export interface Targeting {
  metadata: { namespace?: string };
  spec: Pick<Kustomization["spec"], "kubeConfig" | "serviceAccountName">;
}

export async function targetCluster(
  local: Cluster,
  ks: Targeting,
  defaultServiceAccount: string | undefined,
  /** For an apply: hold (a wait of this long) while the Secret's TenantControlPlane is WriteLimited. */
  holdWriteLimitedMs?: number,
): Promise<Cluster> {
  let target = local;
  // Never fall back to this cluster when the spec names another one in a way flotilla cannot read.
  // (deletion comes here too: its garbage collection must not run against the wrong cluster either).
  refuseUnsupported(ks.spec, [KUBECONFIG_CONFIGMAP_REF]);
  const ref = ks.spec.kubeConfig?.secretRef;
  if (ks.spec.kubeConfig && !ref)
    throw new ReconcileFailure(
      "ReconciliationFailed",
      "spec.kubeConfig names no kubeconfig: set spec.kubeConfig.secretRef",
      {
        stalled: true,
      },
    );
  if (ref) {
    const id = `${ks.metadata.namespace}/${ref.name}`;
    let secret: KubeObject & { data?: Record<string, string> };
    try {
      secret = await local.client.get(pathOf(USED_KINDS.Secret, ks.metadata.namespace, ref.name));
    } catch (err) {
      if (err instanceof NotFoundError) throw new KubeconfigSecretNotFound(id);
      throw new ReconcileFailure(
        "ReconciliationFailed",
        `failed to get kubeconfig secret '${id}': ${(err as Error).message.replace(/^[^:]+: /, "")}`,
      );
    }
    if (holdWriteLimitedMs !== undefined) await holdIfWriteLimited(local, secret, holdWriteLimitedMs);
    const key = ref.key ?? ["value", "value.yaml"].find((k) => secret.data?.[k]);
    const data = key ? secret.data?.[key] : undefined;
    if (!data)
      throw new ReconcileFailure(
        "ReconciliationFailed",
        `kubeconfig secret '${id}' has no key '${ref.key ?? "value"}'`,
      );
    try {
      const source = `secret ${id}`;
      // Claimed under the Secret's name, so a rewritten kubeconfig closes the old credential's connection.
      target = Cluster.claim(source, endpointFromKubeconfig(Buffer.from(data, "base64").toString("utf8"), { source }));
    } catch (err) {
      throw new ReconcileFailure("ReconciliationFailed", (err as Error).message, { stalled: true });
    }
  }
  const sa = ks.spec.serviceAccountName ?? defaultServiceAccount;
  return sa ? target.asServiceAccount(ks.metadata.namespace!, sa) : target;
}

/** A Forbidden under the defaulted service account says where that identity came from. */
export function impersonationHint(ks: Targeting, defaultServiceAccount: string | undefined, err: unknown): string {
  if (ks.spec.serviceAccountName || !defaultServiceAccount || !/forbidden/i.test((err as Error).message)) return "";
  return ` (no spec.serviceAccountName: impersonating '${ks.metadata.namespace}/${defaultServiceAccount}' set by --default-service-account; name a service account allowed to apply these objects)`;
}

/**
 * A remote cluster that does not accept the kubeconfig Secret's credentials (401: an unknown CA, an
 * expired or revoked token) says nothing about who was refused; name the Secret to renew.
 */
export function credentialsHint(ks: Targeting, err: unknown): string {
  const ref = ks.spec.kubeConfig?.secretRef;
  if (!ref || !(err instanceof UnauthorizedError || /\(Unauthorized\)/.test((err as Error).message))) return "";
  return ` (the cluster did not accept the credentials in kubeconfig secret '${ks.metadata.namespace}/${ref.name}': renew them)`;
}

/** A remote cluster that can't be reached names the kubeconfig Secret its address came from. */
export function unreachableHint(ks: Targeting, err: unknown): string {
  const ref = ks.spec.kubeConfig?.secretRef;
  if (!ref || !(err instanceof ConnectionError)) return "";
  return ` (the cluster of kubeconfig secret '${ks.metadata.namespace}/${ref.name}': check that it is up and that the Secret's server address is right)`;
}

/** Every hint a failure on the target cluster deserves. */
export const targetHints = (ks: Targeting, defaultServiceAccount: string | undefined, err: unknown) =>
  `${impersonationHint(ks, defaultServiceAccount, err)}${credentialsHint(ks, err)}${unreachableHint(ks, err)}`;

// TLS for a chart repository, from the HelmRepository's secrets as Flux reads them: spec.certSecretRef
// with ca.crt / tls.crt / tls.key, or (deprecated) the same keys — or caFile / certFile / keyFile —
// in spec.secretRef. A client certificate needs both halves.
import { FlotillaError } from "../../util/errors.js";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";

export interface TlsMaterial {
  ca?: string;
  cert?: string;
  key?: string;
}

export class RepositoryTlsError extends FlotillaError {
  override name = "RepositoryTlsError";
}

export async function repositoryTls(cluster: Cluster, repo: HelmRepository): Promise<TlsMaterial | undefined> {
  const ref = repo.spec.certSecretRef ?? repo.spec.secretRef;
  if (!ref) return undefined;
  const secret = await cluster.client.get<{ data?: Record<string, string> }>(
    pathOf(USED_KINDS.Secret, repo.metadata.namespace, ref.name),
  );
  const get = (...keys: string[]) => {
    const key = keys.find((k) => secret.data?.[k]);
    return key ? Buffer.from(secret.data![key]!, "base64").toString("utf8") : undefined;
  };
  const tls = { ca: get("ca.crt", "caFile"), cert: get("tls.crt", "certFile"), key: get("tls.key", "keyFile") };
  if (!tls.cert !== !tls.key)
    throw new RepositoryTlsError(`secret '${ref.name}': a client certificate needs both 'tls.crt' and 'tls.key'`);
  return tls.ca || tls.cert ? tls : undefined;
}

// A HelmRepository's basic auth (spec.secretRef's username and password), read by the repository's
// reconciler and by the HelmChart's when it pulls a chart or a dependency from that repository; beside
// repositoryTls (tls.ts) so neither controller imports the other's folder.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import type { BasicAuth } from "./index.js";

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

// Credentials for the chart repositories a Git-sourced chart's dependencies name: Flux uses the
// HelmRepository in the chart's namespace with the same URL, and fetches anonymously otherwise.
import type { HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import {
  missingDependencies,
  readDependencies,
  repositoryUrls,
  type RepositoryCredentials,
} from "../../sources/helm/dependencies.js";
import { repositoryAuth } from "../../sources/helm/repository-auth.js";

export async function dependencyCredentials(
  cluster: Cluster,
  namespace: string,
  chartDir: string,
): Promise<RepositoryCredentials[]> {
  const urls = repositoryUrls(missingDependencies(chartDir, readDependencies(chartDir)));
  if (!urls.length) return [];
  const repos = await cluster.client.get<{ items: HelmRepository[] }>(pathOf(SERVED_KINDS.HelmRepository, namespace));
  const credentials: RepositoryCredentials[] = [];
  for (const repo of repos.items) {
    const url = repo.spec.url?.replace(/\/+$/, "");
    if (!url || !urls.includes(url)) continue;
    const auth = await repositoryAuth(cluster, repo);
    if (auth) credentials.push({ url, ...auth });
  }
  return credentials;
}

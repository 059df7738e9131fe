// A HelmChart from an OCI HelmRepository (spec.type 'oci', Flux's legacy path for charts in a
// registry; Flux keeps it in maintenance mode beside OCIRepository + chartRef): the chart is the
// repository `<url path>/<chart>`, its version a tag (helm writes '+' as '_'). A concrete version is
// pulled without listing tags, a range picks the highest matching tag (sources/oci/helm-chart.ts, which
// `flotilla plan` pulls with too). The chart layer is read under the chart size cap, its digest
// checked, then stored like any pulled chart.
import type { Artifact } from "../../api/meta/artifact.js";
import type { HelmChart, HelmRepository } from "../../api/source/helm.js";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { repositoryTls } from "../../sources/helm/tls.js";
import { RegistryClient } from "../../sources/oci/client.js";
import { credentialsFromDockerConfig } from "../../sources/oci/docker-config.js";
import { OciError } from "../../sources/oci/errors.js";
import { chooseChartTag, NoMatchingChartTagError, pullChartLayer, tagVersion } from "../../sources/oci/helm-chart.js";
import { parseOciUrl } from "../../sources/oci/reference.js";
import { objectTimeout } from "../../util/object-timeout.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { ChartBuild } from "./build.js";
import { MAX_CHART_BYTES, plannedChart, reusedChart, storePulledChart } from "./store-pulled-chart.js";

const pullError = (message: string) => new ReconcileFailure("ChartPullError", `chart pull error: ${message}`);

/** Username and password from the repository's secretRef: `username`/`password`, or a `.dockerconfigjson`. */
async function registryAuth(
  cluster: Cluster,
  repo: HelmRepository,
  registry: string,
): Promise<{ username: string; password: string } | undefined> {
  const ref = repo.spec.secretRef;
  if (!ref) return undefined;
  const secret = await cluster.client.get<{ data?: Record<string, string> }>(
    pathOf(USED_KINDS.Secret, repo.metadata.namespace, ref.name),
  );
  const get = (k: string) => (secret.data?.[k] ? Buffer.from(secret.data[k]!, "base64").toString("utf8") : undefined);
  const where = `secret '${repo.metadata.namespace}/${ref.name}'`;
  const docker = get(".dockerconfigjson");
  if (docker) {
    try {
      return credentialsFromDockerConfig(docker, registry);
    } catch (err) {
      throw new ReconcileFailure("AuthenticationFailed", `${where}: ${(err as Error).message}`);
    }
  }
  const [username, password] = [get("username"), get("password")];
  if (!username !== !password)
    throw new ReconcileFailure(
      "AuthenticationFailed",
      `${where}: needs both 'username' and 'password', or a '.dockerconfigjson'`,
    );
  return username ? { username, password: password! } : undefined;
}

export async function buildFromOciHelmRepository(
  env: { cluster: Cluster; storage: Storage; limits: ArtifactLimits },
  chart: HelmChart,
  repo: HelmRepository,
  previous: Artifact | undefined,
): Promise<ChartBuild> {
  const ns = chart.metadata.namespace!;
  const id = `HelmRepository '${ns}/${repo.metadata.name}'`;
  if (repo.spec.provider && repo.spec.provider !== "generic")
    throw new ReconcileFailure(
      "UnsupportedField",
      `spec.provider '${repo.spec.provider}' of ${id} is not supported by flotilla: ` +
        "use provider 'generic' with the registry's credentials in spec.secretRef",
      { stalled: true },
    );
  if (!/^oci:\/\//i.test(repo.spec.url))
    throw new ReconcileFailure("URLInvalid", `invalid OCI registry URL: ${repo.spec.url} (${id})`, { stalled: true });
  const base = repo.spec.url.replace(/^oci:\/\//i, "").replace(/\/+$/, "");
  const [registry, ...path] = base.split("/");
  let repository: string;
  try {
    repository = parseOciUrl(`oci://${registry}/${[...path, chart.spec.chart].join("/")}`).repository;
  } catch (err) {
    throw new ReconcileFailure("URLInvalid", `${id}: ${(err as Error).message}`, { stalled: true });
  }
  const where = `oci://${registry}/${repository}`;
  const auth = await registryAuth(env.cluster, repo, registry!);
  const tls = await repositoryTls(env.cluster, repo);
  const client = new RegistryClient(registry!, {
    insecure: repo.spec.insecure,
    auth,
    ...tls,
    timeoutMs: objectTimeout(repo.spec.timeout, "60s").ms, // capped by --max-object-timeout
  });
  try {
    const tag = await chooseChartTag(client, repository, chart.spec.version ?? "*");
    const version = tagVersion(tag);
    const planned = plannedChart(env.storage, chart, version, previous, { where: id, fix: "fix the chart's tags" });
    if (planned.reused) return reusedChart(chart, planned, previous!, "");
    const data = await pullChartLayer(client, repository, tag, MAX_CHART_BYTES);
    return await storePulledChart(
      env.storage,
      env.limits,
      chart,
      { data, version, from: `${where}:${tag}` },
      planned,
      "",
    );
  } catch (err) {
    if (err instanceof NoMatchingChartTagError)
      throw new ReconcileFailure("ChartPullError", `invalid chart reference: ${err.message}`);
    if (err instanceof OciError) throw pullError(err.message);
    throw err;
  } finally {
    await client.close();
  }
}

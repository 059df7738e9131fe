// A HelmChart from an OCI HelmRepository (spec.type 'oci', Flux's legacy path for charts in a
// registry; Flux keeps it in maintenance mode beside OCIRepository + chartRef): the chart is the
// repository `<url path>/<chart>`, its version a tag (helm writes '+' as '_'). A concrete version is
// pulled without listing tags, a range picks the highest matching tag, as source-controller's
// OCIChartRepository does. The chart layer (helm's media type) is read under the chart size cap,
// its digest checked, then stored like any pulled chart.
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
import { HELM_CHART_CONTENT_MEDIA_TYPE } from "../../sources/oci/flux-artifact.js";
import { parseOciUrl } from "../../sources/oci/reference.js";
import { newestFirst } from "../../sources/oci/tag-order.js";
import { maxSatisfying } from "../../sources/semver.js";
import { objectTimeout } from "../../util/object-timeout.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { ChartBuild } from "./build.js";
import { MAX_CHART_BYTES, plannedChart, reusedChart, storePulledChart } from "./store-pulled-chart.js";

const CONCRETE_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const tagOf = (version: string) => version.replaceAll("+", "_");
const versionOf = (tag: string) => tag.replaceAll("_", "+");

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

/** The tag to pull: the version itself when concrete, else the highest tag the range matches. */
async function chooseTag(client: RegistryClient, repository: string, wanted: string, where: string): Promise<string> {
  if (CONCRETE_VERSION.test(wanted)) return tagOf(wanted);
  const tags = await client.listTags(repository);
  if (tags.includes(wanted)) return wanted;
  const best = maxSatisfying(tags.map(versionOf), wanted);
  if (best) return tagOf(best);
  const newest = newestFirst(tags).slice(0, 10);
  throw new ReconcileFailure(
    "ChartPullError",
    `invalid chart reference: no tag of ${where} matches version '${wanted}'; ` +
      (newest.length ? `newest tags: ${newest.join(", ")}` : "it has no tags: push the chart with helm push"),
  );
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
    const tag = await chooseTag(client, repository, chart.spec.version ?? "*", where);
    const version = versionOf(tag);
    const planned = plannedChart(env.storage, chart, version, previous, { where: id, fix: "fix the chart's tags" });
    if (planned.reused) return reusedChart(chart, planned, previous!, "");
    const { manifest } = await client.getManifest(repository, tag);
    const layer = manifest.layers.find((l) => l.mediaType === HELM_CHART_CONTENT_MEDIA_TYPE);
    if (!layer)
      throw pullError(
        `${where}:${tag} is not a Helm chart: it has no layer of media type ${HELM_CHART_CONTENT_MEDIA_TYPE} ` +
          `(layers: ${manifest.layers.map((l) => l.mediaType).join(", ") || "none"})`,
      );
    const data = await client.getBlob(repository, layer.digest, MAX_CHART_BYTES);
    return await storePulledChart(
      env.storage,
      env.limits,
      chart,
      { data, version, from: `${where}:${tag}` },
      planned,
      "",
    );
  } catch (err) {
    if (err instanceof OciError) throw pullError(err.message);
    throw err;
  } finally {
    await client.close();
  }
}

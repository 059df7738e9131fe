// A chart version a change asks for, from an OCI HelmRepository (spec.type 'oci'), read with the OCI
// library's client as the HelmChart controller will read it — `<url>/<chart>`, a concrete version as
// its tag ('+' written '_'), a range as the highest tag it matches, helm's chart layer under the chart
// size cap — and written into the plan's work directory as a .tgz. `insecure` is honoured (plain HTTP);
// credentials and client certificates are refused by pull-chart.ts before this is reached.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HelmRepository } from "../../api/source/helm.js";
import { MAX_CHART_BYTES } from "../../controllers/helmchart/store-pulled-chart.js";
import { RegistryClient } from "../../sources/oci/client.js";
import { HELM_CHART_CONTENT_MEDIA_TYPE } from "../../sources/oci/flux-artifact.js";
import { parseOciUrl } from "../../sources/oci/reference.js";
import { maxSatisfying } from "../../sources/semver.js";

const CONCRETE_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const tagOf = (version: string) => version.replaceAll("+", "_");
const versionOf = (tag: string) => tag.replaceAll("_", "+");

export async function pullOciChart(
  repo: HelmRepository,
  chart: string,
  version: string,
  work: string,
): Promise<string> {
  const id = `HelmRepository ${repo.metadata.namespace}/${repo.metadata.name}`;
  const { registry, repository } = parseOciUrl(`${repo.spec.url.replace(/\/+$/, "")}/${chart}`);
  const where = `oci://${registry}/${repository}`;
  const client = new RegistryClient(registry, { insecure: repo.spec.insecure });
  try {
    let tag = tagOf(version);
    if (!CONCRETE_VERSION.test(version)) {
      const tags = await client.listTags(repository);
      const best = tags.includes(version) ? version : maxSatisfying(tags.map(versionOf), version);
      if (!best)
        throw new Error(
          `no tag of ${where} matches version '${version}' (tags: ${tags.slice(0, 10).join(", ") || "none"})`,
        );
      tag = tagOf(best);
    }
    const { manifest } = await client.getManifest(repository, tag);
    const layer = manifest.layers.find((l) => l.mediaType === HELM_CHART_CONTENT_MEDIA_TYPE);
    if (!layer)
      throw new Error(`${where}:${tag} is not a Helm chart: it has no ${HELM_CHART_CONTENT_MEDIA_TYPE} layer`);
    const data = await client.getBlob(repository, layer.digest, MAX_CHART_BYTES);
    const file = join(
      work,
      `pulled-${repo.metadata.namespace}-${repo.metadata.name}-${chart}-${tag}.tgz`.replace(/[^\w./-]/g, "_"),
    );
    writeFileSync(file, data);
    return file;
  } catch (err) {
    throw new Error(`pulling ${chart}@${version} from ${id}: ${(err as Error).message}`);
  } finally {
    await client.close();
  }
}

// A chart version a change asks for, from an OCI HelmRepository (spec.type 'oci'), read as the HelmChart
// controller will read it — the same tag choice and chart layer (sources/oci/helm-chart.ts), under the
// chart size cap — and written into the plan's work directory as a .tgz. `insecure` is honoured (plain HTTP);
// credentials and client certificates are refused by pull-chart.ts before this is reached.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HelmRepository } from "../../api/source/helm.js";
import { MAX_CHART_BYTES } from "../../controllers/helmchart/store-pulled-chart.js";
import { RegistryClient } from "../../sources/oci/client.js";
import { chooseChartTag, pullChartLayer } from "../../sources/oci/helm-chart.js";
import { parseOciUrl } from "../../sources/oci/reference.js";

export async function pullOciChart(
  repo: HelmRepository,
  chart: string,
  version: string,
  work: string,
): Promise<string> {
  const id = `HelmRepository ${repo.metadata.namespace}/${repo.metadata.name}`;
  const { registry, repository } = parseOciUrl(`${repo.spec.url.replace(/\/+$/, "")}/${chart}`);
  const client = new RegistryClient(registry, { insecure: repo.spec.insecure });
  try {
    const tag = await chooseChartTag(client, repository, version);
    const data = await pullChartLayer(client, repository, tag, MAX_CHART_BYTES);
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

// What HelmRelease NAME would install, rendered the way its controller renders it, for the open Flux
// asks `flux build|diff helmrelease` (fluxcd/flux2#2808, fluxcd/helm-controller#652): the values it
// composes (valuesFrom read from the cluster, spec.values) with local --values files laid over them,
// the chart from a local path or the HelmRelease's own HelmChart artifact, `helm template` with the
// release's name and namespace, then the post-renderers (patches, commonMetadata, origin labels) and
// the ownership metadata helm adds when it installs (managed-by label, meta.helm.sh annotations).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { SERVED_KINDS } from "../../../api/kinds.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { pathOf } from "../../../api/paths.js";
import { loadChart } from "../../../controllers/helmrelease/chart-source.js";
import { renderRelease } from "../../../controllers/helmrelease/render-apply.js";
import { composeValues } from "../../../controllers/helmrelease/values/compose.js";
import { targetCluster } from "../../../controllers/kit/target-cluster.js";
import type { Cluster } from "../../../kube/cluster.js";
import { NotFoundError } from "../../../kube/errors.js";
import { SourceFetcher } from "../../../sources/consumer.js";
import { type PlanEntry, Redactor } from "../../../ssa/index.js";
import { makeWorkDir } from "../../../util/work-dir.js";
import { UsageError } from "../../errors.js";
import { secretValues } from "../../../fleet/plan/helm-values.js";
import { diffHelmReleaseOn } from "../../../fleet/plan/online-backend.js";

export interface HelmReleasePreview {
  hr: HelmRelease;
  objects: KubeObject[];
  redactor: Redactor;
  target: Cluster;
}

type Values = Record<string, unknown>;
const isMap = (v: unknown): v is Values => typeof v === "object" && v !== null && !Array.isArray(v);
/** helm's -f: maps merge deeply, anything else is replaced by the later file. */
const coalesce = (a: Values, b: Values): Values =>
  Object.fromEntries(
    [...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [
      k,
      isMap(a[k]) && isMap(b[k]) ? coalesce(a[k], b[k]) : k in b ? b[k] : a[k],
    ]),
  );

function localValues(files: string[]): Values {
  let merged: Values = {};
  for (const f of files) {
    let doc: unknown;
    try {
      doc = parse(readFileSync(f, "utf8")) ?? {};
    } catch (err) {
      throw new UsageError(`--values ${f}: ${(err as Error).message}`);
    }
    if (!isMap(doc)) throw new UsageError(`--values ${f}: not a YAML map of values`);
    merged = coalesce(merged, doc);
  }
  return merged;
}

export async function previewHelmRelease(
  cluster: Cluster,
  ns: string,
  name: string,
  o: { chartPath?: string; valuesFiles: string[] },
): Promise<HelmReleasePreview> {
  let hr: HelmRelease;
  try {
    hr = await cluster.client.get<HelmRelease>(pathOf(SERVED_KINDS.HelmRelease, ns, name));
  } catch (err) {
    if (err instanceof NotFoundError) throw new UsageError(`HelmRelease '${ns}/${name}' not found`);
    throw err;
  }
  const redactor = new Redactor();
  redactor.addValues((await secretValues(cluster, hr)).values);
  const composed = await composeValues(cluster.client, hr);
  const values = coalesce(composed.values, localValues(o.valuesFiles));
  const work = makeWorkDir("flotilla-build-hr-");
  try {
    const chart =
      o.chartPath ?? (await loadChart(new SourceFetcher(cluster.client, join(work, "sources")), hr, 0)).path;
    const target = await targetCluster(cluster, hr, undefined);
    const objects = await renderRelease(hr, chart, values, (obj) =>
      target.mapping(obj).then(
        (m) => m.namespaced,
        () => true,
      ),
    );
    redactor.addObjects(objects);
    return { hr, objects, redactor, target };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What installing the render would change on the release's cluster; objects helm would delete too. */
export const diffHelmRelease = (p: HelmReleasePreview): Promise<{ entries: PlanEntry[]; deleted: string[] }> =>
  diffHelmReleaseOn(p.target, p.hr, p.objects, p.redactor);

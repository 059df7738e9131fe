// What HelmRelease NAME would install, rendered the way its controller renders it, for the open Flux
// asks `flux build|diff helmrelease` (fluxcd/flux2#2808, fluxcd/helm-controller#652): the values it
// composes (valuesFrom read from the cluster, spec.values) with local --values files laid over them,
// the chart from a local path or the HelmRelease's own HelmChart artifact, `helm template` with the
// release's name and namespace, then the post-renderers (patches, commonMetadata, origin labels) and
// the ownership metadata helm adds when it installs (managed-by label, meta.helm.sh annotations).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { runHelm } from "../../../binaries/helm/index.js";
import { loadChart } from "../../../controllers/helmrelease/chart-source.js";
import { postRender } from "../../../controllers/helmrelease/post-render/render.js";
import { releaseName, targetNamespace } from "../../../controllers/helmrelease/release-name.js";
import { ReleaseStorage, manifestObjects } from "../../../controllers/helmrelease/storage/release.js";
import { composeValues } from "../../../controllers/helmrelease/values/compose.js";
import { targetCluster } from "../../../controllers/kustomization/target-cluster.js";
import type { Cluster } from "../../../kube/cluster.js";
import { NotFoundError } from "../../../kube/errors.js";
import { SourceFetcher } from "../../../sources/consumer.js";
import { type PlanEntry, Redactor, ResourceManager } from "../../../ssa/index.js";
import { makeWorkDir } from "../../../util/work-dir.js";
import { UsageError } from "../../errors.js";

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

const leaves = (v: unknown): string[] =>
  typeof v === "string" ? [v] : isMap(v) || Array.isArray(v) ? Object.values(v).flatMap(leaves) : [];

/** Every value the HelmRelease takes from a Secret (valuesFrom), so that no output shows one. */
async function secretValues(cluster: Cluster, hr: HelmRelease): Promise<Redactor> {
  const redactor = new Redactor();
  for (const ref of hr.spec.valuesFrom ?? []) {
    if (ref.kind !== "Secret") continue;
    const secret = await cluster.client
      .get<{ data?: Record<string, string> }>(`/api/v1/namespaces/${hr.metadata.namespace}/secrets/${ref.name}`)
      .catch(() => undefined);
    for (const raw of Object.values(secret?.data ?? {})) {
      const text = Buffer.from(raw, "base64").toString("utf8");
      redactor.addValues([text]);
      try {
        redactor.addValues(leaves(parse(text)));
      } catch {
        // not YAML: the whole text is the value (a targetPath)
      }
    }
  }
  return redactor;
}

export async function previewHelmRelease(
  cluster: Cluster,
  ns: string,
  name: string,
  o: { chartPath?: string; valuesFiles: string[] },
): Promise<HelmReleasePreview> {
  let hr: HelmRelease;
  try {
    hr = await cluster.client.get<HelmRelease>(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}`);
  } catch (err) {
    if (err instanceof NotFoundError) throw new UsageError(`HelmRelease '${ns}/${name}' not found`);
    throw err;
  }
  const redactor = await secretValues(cluster, hr);
  const composed = await composeValues(cluster.client, hr);
  const values = coalesce(composed.values, localValues(o.valuesFiles));
  const work = makeWorkDir("flotilla-build-hr-");
  try {
    const chart =
      o.chartPath ?? (await loadChart(new SourceFetcher(cluster.client, join(work, "sources")), hr, 0)).path;
    const valuesFile = join(work, "values.yaml");
    writeFileSync(valuesFile, JSON.stringify(values));
    const ns2 = targetNamespace(hr);
    const rendered = await runHelm(["template", releaseName(hr), chart, "--namespace", ns2, "--values", valuesFile]);
    const objects = parseAllDocuments(postRender(rendered.stdout, hr))
      .map((d) => d.toJS() as KubeObject | null)
      .filter((x): x is KubeObject => !!x && typeof x === "object");
    const target = await targetCluster(cluster, hr, undefined);
    for (const obj of objects) {
      if (!obj.metadata.namespace && (await target.mapping(obj)).namespaced) obj.metadata.namespace = ns2;
      // What helm itself adds to every object it installs (and owns as field manager "helm").
      obj.metadata.labels = { ...obj.metadata.labels, "app.kubernetes.io/managed-by": "Helm" };
      obj.metadata.annotations = {
        ...obj.metadata.annotations,
        "meta.helm.sh/release-name": releaseName(hr),
        "meta.helm.sh/release-namespace": ns2,
      };
    }
    redactor.addObjects(objects);
    return { hr, objects, redactor, target };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What installing the render would change on the release's cluster; objects helm would delete too. */
export async function diffHelmRelease(p: HelmReleasePreview): Promise<{ entries: PlanEntry[]; deleted: string[] }> {
  const entries = await new ResourceManager(p.target, { fieldManager: "helm" }).plan(p.objects, p.redactor);
  const storageNs = p.hr.spec.storageNamespace ?? targetNamespace(p.hr);
  const last = await new ReleaseStorage(p.target.client, storageNs).last(releaseName(p.hr));
  const keep = new Set(entries.map((e) => e.subject));
  const deleted: string[] = [];
  for (const o of (last ? manifestObjects(last) : []) as unknown as KubeObject[]) {
    const namespaced = await p.target.mapping(o).then(
      (m) => m.namespaced,
      () => true,
    );
    const subject = namespaced
      ? `${o.kind}/${o.metadata.namespace ?? targetNamespace(p.hr)}/${o.metadata.name}`
      : `${o.kind}/${o.metadata.name}`;
    if (!keep.has(subject)) deleted.push(subject);
  }
  return { entries, deleted };
}

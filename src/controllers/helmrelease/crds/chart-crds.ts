// The CRD policies (`install.crds`, `upgrade.crds`: Skip, Create, CreateReplace), done as
// helm-controller does them: the CRDs in the chart's crds/ directories (the chart's and its
// subcharts') are applied by the controller itself, since `helm upgrade` never touches crds/ and
// `helm install` only creates the ones that are missing. Create makes those that don't exist;
// CreateReplace also brings existing ones up to the chart's version. Applied as field manager "helm",
// the manager helm itself uses.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { KubeObject } from "../../../api/meta/object.js";
import type { Cluster } from "../../../kube/cluster.js";
import { NotFoundError } from "../../../kube/errors.js";
import { readTarball } from "../../../sources/artifact/tarball.js";
import { yamlTooDeepAt } from "../../../util/yaml-nesting.js";
import { ReconcileFailure } from "../../kit/failure.js";

const CRD_FILE = /^[^/]+\/(charts\/[^/]+\/)*crds\/[^/]+\.(ya?ml|json)$/;
const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** The CustomResourceDefinitions in a packaged chart's crds/ directories, in file order. */
export function chartCrds(chartTgz: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const entry of readTarball(readFileSync(chartTgz))) {
    if (entry.type !== "file" || !CRD_FILE.test(entry.path)) continue;
    const text = entry.content.toString("utf8");
    if (yamlTooDeepAt(text) !== undefined)
      throw new ReconcileFailure("CRDError", `${entry.path}: YAML nested too deeply`);
    for (const doc of parseAllDocuments(text)) {
      const obj = doc.toJSON() as KubeObject | null;
      if (!obj) continue;
      if (obj.kind !== "CustomResourceDefinition")
        throw new ReconcileFailure(
          "CRDError",
          `${entry.path}: ${obj.kind} in crds/ (only CustomResourceDefinitions belong there)`,
        );
      out.push(obj);
    }
  }
  return out;
}

export type CrdPolicy = "Skip" | "Create" | "CreateReplace";

/** The policy of an action: install defaults to Create, upgrade to Skip (helm-controller's defaults). */
export function crdPolicy(hr: HelmRelease, action: "install" | "upgrade"): CrdPolicy {
  return action === "install" ? (hr.spec.install?.crds ?? "Create") : (hr.spec.upgrade?.crds ?? "Skip");
}

/** Applies the chart's CRDs under `policy`; returns the names it created or replaced. */
export async function applyChartCrds(target: Cluster, chartTgz: string, policy: CrdPolicy): Promise<string[]> {
  if (policy === "Skip") return [];
  const done: string[] = [];
  for (const crd of chartCrds(chartTgz)) {
    const name = crd.metadata.name;
    if (policy === "Create") {
      try {
        await target.client.get(`${CRD_PATH}/${encodeURIComponent(name)}`);
        continue;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    await target.apply(crd, "helm", { force: true });
    done.push(name);
  }
  return done;
}

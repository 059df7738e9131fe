// A ResourceSet's objects, built as the operator's BuildResourceSet builds them: each `resources` entry
// rendered once per input set (JSON → YAML → template → one object), then `resourcesTemplate` per input
// set (multi-document YAML); objects deduplicated by group/kind/namespace/name with `resources` first,
// objects annotated fluxcd.controlplane.io/reconcile: disabled left out. A failure names the part, the
// input set (index and id) and, through Go's message, the template line and column.
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_ANNOTATIONS, type ResourceSetResources } from "../../api/operator/resourceset.js";
import { parseYamlDocuments } from "../../kustomize/yaml/parse.js";
import { parseApiVersion } from "../../kube/object.js";
import { FlotillaError } from "../../util/errors.js";
import type { InputSet } from "./inputs.js";
import { renderResource, renderTemplate } from "./template/engine.js";

export class ResourceSetBuildError extends FlotillaError {
  override name = "ResourceSetBuildError";
}

const keyOf = (o: KubeObject) =>
  [parseApiVersion(o.apiVersion ?? "").group, o.kind, o.metadata?.namespace ?? "", o.metadata?.name].join("/");

const disabled = (o: KubeObject) => o.metadata?.annotations?.[OPERATOR_ANNOTATIONS.reconcile] === "disabled";

/** Which input set a failure came from: its index and, when it has one, its id. */
const inputLabel = (inputs: InputSet[], i: number) => {
  const id = inputs[i]?.id;
  return inputs.length === 0
    ? ""
    : ` for inputs[${i}]${typeof id === "string" || typeof id === "number" ? ` (id ${id})` : ""}`;
};

function readObjects(text: string, what: string): KubeObject[] {
  let docs;
  try {
    docs = parseYamlDocuments(text, what);
  } catch (err) {
    throw new ResourceSetBuildError(`failed to read objects from ${what}: ${(err as Error).message}`);
  }
  return docs
    .map((d) => d.value)
    .filter((v) => v !== null)
    .map((v) => {
      const o = v as KubeObject;
      if (typeof v !== "object" || Array.isArray(v) || !o.apiVersion || !o.kind || !o.metadata?.name)
        throw new ResourceSetBuildError(
          `failed to read objects from ${what}: a document is not a Kubernetes object (apiVersion, kind and metadata.name are required): ${JSON.stringify(v).slice(0, 120)}`,
        );
      return o;
    });
}

export function buildResourceSet(spec: ResourceSetResources, inputs: InputSet[]): KubeObject[] {
  const objects: KubeObject[] = [];
  const seen = new Set<string>();
  const add = (o: KubeObject, dedup: boolean) => {
    const key = keyOf(o);
    if (dedup && seen.has(key)) return;
    seen.add(key);
    objects.push(o);
  };
  const sets: (InputSet | null)[] = inputs.length ? inputs : [null];

  (spec.resources ?? []).forEach((resource, r) => {
    sets.forEach((input, i) => {
      let built: KubeObject[];
      try {
        built = readObjects(renderResource(resource, input), `resources[${r}]`);
        if (built.length !== 1)
          throw new ResourceSetBuildError(`resources[${r}] rendered ${built.length} objects, not one`);
      } catch (err) {
        throw new ResourceSetBuildError(
          `failed to build resources[${r}]${inputLabel(inputs, i)}: ${(err as Error).message}`,
        );
      }
      const o = built[0]!;
      if (input !== null && disabled(o)) return;
      add(o, input !== null);
    });
  });

  if (spec.resourcesTemplate) {
    const fromTemplate: KubeObject[] = [];
    sets.forEach((input, i) => {
      try {
        fromTemplate.push(...readObjects(renderTemplate(spec.resourcesTemplate!, input), "resourcesTemplate"));
      } catch (err) {
        throw new ResourceSetBuildError(
          `failed to build resourcesTemplate${inputLabel(inputs, i)}: ${(err as Error).message}`,
        );
      }
    });
    for (const o of fromTemplate) if (!disabled(o)) add(o, true);
  }
  return objects;
}

/** commonMetadata: its labels and annotations on every object, overriding the object's own. */
export function setCommonMetadata(
  objects: KubeObject[],
  common: { labels?: Record<string, string>; annotations?: Record<string, string> } | undefined,
): void {
  if (!common) return;
  for (const o of objects) {
    if (common.labels) o.metadata.labels = { ...o.metadata.labels, ...common.labels };
    if (common.annotations) o.metadata.annotations = { ...o.metadata.annotations, ...common.annotations };
  }
}

// A ResourceSet's objects, built as the operator's BuildResourceSet builds them: each `resources` entry
// rendered once per input set (JSON → YAML → template → one object), then `resourcesTemplate` per input
// set (multi-document YAML); objects deduplicated by group/kind/namespace/name with `resources` first,
// objects annotated fluxcd.controlplane.io/reconcile: disabled left out. A failure names the part, the
// input set (index and id) and, through Go's message, the template line and column. With spec.steps
// (BuildResourceSetSteps) each step is built the same way in order; an object in two steps is an error.
import type { KubeObject } from "../../api/meta/object.js";
import {
  OPERATOR_ANNOTATIONS,
  type ResourceSetResources,
  type ResourceSetSpec,
} from "../../api/operator/resourceset.js";
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

/** One step's objects; the steps-less spec is one anonymous step (no name), as in the operator. */
export interface BuiltStep {
  name?: string;
  /** The step's health-check timeout (a Go duration); undefined: the ResourceSet's reconcileTimeout. */
  timeout?: string;
  objects: KubeObject[];
}

/** The operator's ValidateResourceSetSpec: the CRD's CEL rules again, for builds that bypass the API server. */
export function validateResourceSetSpec(spec: ResourceSetSpec): void {
  if (spec.steps?.length && (spec.resources?.length || spec.resourcesTemplate))
    throw new ResourceSetBuildError("spec.steps is mutually exclusive with spec.resources and spec.resourcesTemplate");
  for (const step of spec.steps ?? [])
    if (!step.resources?.length && !step.resourcesTemplate)
      throw new ResourceSetBuildError(
        `step "${step.name}": at least one of resources or resourcesTemplate must be set`,
      );
}

/** ssautil.FmtUnstructured: Kind/namespace/name, or Kind/name for a cluster-scoped object. */
const fmtObject = (o: KubeObject) =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`;

/** The operator's BuildResourceSetFromSpec: the objects of each step, in order (empty steps kept). */
export function buildResourceSetSteps(spec: ResourceSetSpec, inputs: InputSet[]): BuiltStep[] {
  validateResourceSetSpec(spec);
  if (!spec.steps?.length) return [{ objects: buildResourceSet(spec, inputs) }];
  const stepOf = new Map<string, string>();
  return spec.steps.map((step) => {
    let objects: KubeObject[];
    try {
      objects = buildResourceSet(step, inputs);
    } catch (err) {
      throw new ResourceSetBuildError(`step "${step.name}": ${(err as Error).message}`);
    }
    // Duplicates within a step follow buildResourceSet; across steps they are refused (the version is no part of the key).
    for (const o of objects) {
      const previous = stepOf.get(keyOf(o));
      if (previous !== undefined && previous !== step.name)
        throw new ResourceSetBuildError(
          `duplicate resource ${fmtObject(o)} in step "${step.name}", already defined in step "${previous}"`,
        );
      stepOf.set(keyOf(o), step.name);
    }
    return { name: step.name, ...(step.timeout ? { timeout: step.timeout } : {}), objects };
  });
}

export const flattenSteps = (steps: BuiltStep[]): KubeObject[] => steps.flatMap((s) => s.objects);

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

// CustomResourceDefinitions built from the table of kinds (names, versions, printer columns as
// Flux shows them) and our TypeScript API definitions (one schema per version), with the status
// subresource and the storage version marked.
import { SUBSTITUTE_ANNOTATION } from "./meta/annotations.js";
import type { ServedKind } from "./kinds.js";

type SchemaValue = string | number | boolean | SchemaValue[] | Schema;
export type Schema = { [key: string]: SchemaValue };

export const str = (extra: Schema = {}): Schema => ({ type: "string", ...extra });
export const bool = (): Schema => ({ type: "boolean" });
export const int = (extra: Schema = {}): Schema => ({ type: "integer", ...extra });
export const obj = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
});
export const arr = (items: Schema): Schema => ({ type: "array", items });
export const open = (): Schema => ({ type: "object", "x-kubernetes-preserve-unknown-fields": true });
/** Any JSON value kept as written (a strategic-merge patch, a JSON 6902 value), as Flux's CRDs leave them. */
export const anyValue = (): Schema => ({ "x-kubernetes-preserve-unknown-fields": true });
export const strMap = (): Schema => ({ type: "object", additionalProperties: { type: "string" } });
/** The API server's CEL rules on an object (x-kubernetes-validations), as Flux's CRDs declare them. */
export const withRules = (schema: Schema, rules: [rule: string, message: string][]): Schema => ({
  ...schema,
  "x-kubernetes-validations": rules.map(([rule, message]) => ({ rule, message })),
});
/** A kustomize selector (patches' and ignore rules' target). */
export const selector = (): Schema =>
  obj({
    annotationSelector: str(),
    group: str(),
    kind: str(),
    labelSelector: str(),
    name: str(),
    namespace: str(),
    version: str(),
  });
/** kustomize's images, patches and (deprecated) patchesJson6902: Kustomization and HelmRelease post-renderers. */
export const images = (): Schema => arr(obj({ name: str(), newName: str(), newTag: str(), digest: str() }, ["name"]));
export const patches = (): Schema => arr(obj({ patch: str(), target: selector() }, ["patch"]));
export const patchesJson6902 = (): Schema =>
  arr(
    obj(
      {
        patch: arr(
          obj(
            {
              op: str({ enum: ["test", "remove", "add", "replace", "move", "copy"] }),
              path: str(),
              from: str(),
              value: anyValue(),
            },
            ["op", "path"],
          ),
        ),
        target: selector(),
      },
      ["patch", "target"],
    ),
  );
/** kustomize's (deprecated) patchesStrategicMerge: each patch kept as written. */
export const patchesStrategicMerge = (): Schema => arr(anyValue());
/** Paths left alone on the objects a selector picks (Kustomization v1 ignore, HelmRelease driftDetection.ignore). */
export const ignoreRules = (): Schema => arr(obj({ paths: arr(str()), target: selector() }, ["paths"]));
/** Labels and annotations to set on objects (commonMetadata, a HelmRelease chart template's metadata). */
export const labelsAndAnnotations = (): Schema => obj({ annotations: strMap(), labels: strMap() });
/** CEL health checks (Kustomization v1, HelmRelease v2). */
export const healthCheckExprs = (): Schema =>
  arr(
    obj({ apiVersion: str(), kind: str(), current: str(), inProgress: str(), failed: str() }, [
      "apiVersion",
      "current",
    ]),
  );
/** status.inventory: the objects applied, as Flux records them. */
/**
 * spec.dependsOn of the app kinds: Flux's name/namespace/readyExpr, and the other-kind fields of Flux's open
 * dependsOn-any-object proposal (kustomize-controller#1653): apiVersion, kind and ready.
 */
export const dependsOnSchema = (): Schema =>
  arr(
    obj({ apiVersion: str(), kind: str(), name: str(), namespace: str(), ready: bool(), readyExpr: str() }, ["name"]),
  );

export const inventory = (): Schema => obj({ entries: arr(obj({ id: str(), v: str() }, ["id", "v"])) }, ["entries"]);
/** accessFrom: provisional in Flux and not implemented by Flux either; kept so manifests apply. */
export const accessFrom = (): Schema =>
  obj({ namespaceSelectors: arr(obj({ matchLabels: strMap() })) }, ["namespaceSelectors"]);

/** Go duration as Flux validates it (e.g. 1m, 10m30s, 1.5h). */
export const duration = (withHours = true): Schema =>
  str({ pattern: withHours ? "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$" : "^([0-9]+(\\.[0-9]+)?(ms|s|m))+$" });
export const localRef = (): Schema => obj({ name: str() }, ["name"]);

export const condition = (): Schema =>
  obj(
    {
      type: str(),
      status: str({ enum: ["True", "False", "Unknown"] }),
      observedGeneration: int({ format: "int64" }),
      lastTransitionTime: str({ format: "date-time" }),
      reason: str(),
      message: str(),
    },
    ["type", "status", "lastTransitionTime", "reason", "message"],
  );

export const artifact = (): Schema =>
  obj(
    {
      path: str(),
      url: str(),
      revision: str(),
      digest: str(),
      lastUpdateTime: str({ format: "date-time" }),
      size: int({ format: "int64" }),
      metadata: { type: "object", additionalProperties: { type: "string" } },
    },
    ["path", "url", "revision", "lastUpdateTime"],
  );

/** The schemas of one version of a kind. */
export interface VersionSchema {
  spec: Schema;
  status: Schema;
  /** CEL rules on the whole object (e.g. the Flux Operator's "the only accepted name ... is 'flux'"). */
  rules?: [rule: string, message: string][];
}

/** The CRD of a served kind, given a schema for each of its versions. */
export function crdFor(kind: ServedKind, schemas: Record<string, VersionSchema>) {
  const stored = kind.versions.find((v) => v.storage)!.name;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: {
      name: `${kind.plural}.${kind.group}`,
      labels: { "app.kubernetes.io/part-of": "flotilla" },
      annotations: { [SUBSTITUTE_ANNOTATION]: "disabled" },
    },
    spec: {
      group: kind.group,
      scope: kind.scope,
      names: {
        kind: kind.kind,
        listKind: `${kind.kind}List`,
        plural: kind.plural,
        singular: kind.singular,
        // Left out when there are none, as Flux's CRDs do (Receiver).
        ...(kind.shortNames.length ? { shortNames: kind.shortNames } : {}),
        categories: kind.categories,
      },
      versions: kind.versions.map((v) => {
        const schema = schemas[v.name];
        if (!schema) throw new Error(`no schema for ${kind.kind} ${v.name}`);
        return {
          name: v.name,
          served: v.served,
          storage: v.storage,
          ...(v.deprecated
            ? {
                deprecated: true,
                deprecationWarning: `${kind.group}/${v.name} ${kind.kind} is deprecated, upgrade to ${stored}`,
              }
            : {}),
          subresources: { status: {} },
          additionalPrinterColumns: kind.columns,
          schema: {
            openAPIV3Schema: ((root: Schema) => (schema.rules ? withRules(root, schema.rules) : root))(
              obj({
                apiVersion: str(),
                kind: str(),
                metadata: { type: "object" },
                spec: schema.spec,
                status: { ...schema.status, default: { observedGeneration: -1 } },
              }),
            ),
          },
        };
      }),
    },
  };
}

/** v1beta1's artifact (source-controller ≤ v1.6): a checksum where later versions have digest, size, metadata. */
export const artifactV1beta1 = (): Schema =>
  obj({ path: str(), url: str(), revision: str(), checksum: str(), lastUpdateTime: str({ format: "date-time" }) }, [
    "path",
    "url",
    "revision",
    "lastUpdateTime",
  ]);

/**
 * `schema` without the fields at `paths` (dotted, `[]` for array items), for an older API version that
 * lacked fields a newer one added; the result is a copy.
 */
export function withoutFields(schema: Schema, paths: string[]): Schema {
  const copy = structuredClone(schema);
  for (const path of paths) {
    const parts = path.replace(/\[\]/g, ".[]").split(".");
    let at: Schema | undefined = copy;
    for (const part of parts.slice(0, -1)) {
      if (!at) break;
      at = part === "[]" ? (at.items as Schema) : ((at.properties as Record<string, Schema>)?.[part] as Schema);
    }
    const last = parts.at(-1)!;
    const props = at?.properties as Record<string, Schema> | undefined;
    if (props?.[last]) {
      delete props[last];
      if (Array.isArray(at!.required)) at!.required = (at!.required as string[]).filter((r) => r !== last);
    }
  }
  return copy;
}

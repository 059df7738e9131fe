// CustomResourceDefinitions built from our TypeScript API definitions: one schema per kind and
// version, printer columns as Flux shows them, status subresource, storage version marked.
import type { Json } from "../kustomize/yaml/emit.js";

export type Schema = { [key: string]: Json };

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

export const READY_COLUMNS = [
  { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: "Status", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].message' },
];
export const AGE_COLUMN = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

export interface KindDefinition {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories?: string[];
  versions: { name: string; storage: boolean; deprecated?: boolean; spec: Schema; status: Schema; columns: Schema[] }[];
}

export function crdFor(def: KindDefinition) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: {
      name: `${def.plural}.${def.group}`,
      labels: { "app.kubernetes.io/part-of": "flotilla" },
      annotations: { "kustomize.toolkit.fluxcd.io/substitute": "disabled" },
    },
    spec: {
      group: def.group,
      scope: "Namespaced",
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        shortNames: def.shortNames,
        ...(def.categories ? { categories: def.categories } : {}),
      },
      versions: def.versions.map((v) => ({
        name: v.name,
        served: true,
        storage: v.storage,
        ...(v.deprecated
          ? { deprecated: true, deprecationWarning: `${def.group}/${v.name} ${def.kind} is deprecated, upgrade to v1` }
          : {}),
        subresources: { status: {} },
        additionalPrinterColumns: v.columns,
        schema: {
          openAPIV3Schema: obj({
            apiVersion: str(),
            kind: str(),
            metadata: { type: "object" },
            spec: v.spec,
            status: { ...v.status, default: { observedGeneration: -1 } },
          }),
        },
      })),
    },
  };
}

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fluxCrds } from "./flux-crds.js";
import type { Schema } from "./crd.js";

// Field paths of Flux's own CRDs (generated from them; see the file's _about).
const flux = JSON.parse(
  readFileSync(new URL("../../test/fixtures/flux-crds/field-paths.json", import.meta.url), "utf8"),
);

const CONDITION_FIELDS = ["lastTransitionTime", "message", "observedGeneration", "reason", "status", "type"].map(
  (f) => `conditions[].${f}`,
);

/** Fields flotilla's schemas carry beyond Flux's, each with its reason in the schema file. */
const EXTRA: Record<string, string[]> = {
  // v1beta patches survive conversion to the stored v1 (kustomization-schema.ts); dependsOn across kinds, in the
  // shape of Flux's open kustomize-controller#1653 (decision 0041).
  "Kustomization/v1/spec": [
    "dependsOn[].apiVersion",
    "dependsOn[].kind",
    "dependsOn[].ready",
    "patchesJson6902",
    "patchesJson6902[].patch",
    "patchesJson6902[].patch[].from",
    "patchesJson6902[].patch[].op",
    "patchesJson6902[].patch[].path",
    "patchesJson6902[].patch[].value",
    "patchesJson6902[].target",
    "patchesJson6902[].target.annotationSelector",
    "patchesJson6902[].target.group",
    "patchesJson6902[].target.kind",
    "patchesJson6902[].target.labelSelector",
    "patchesJson6902[].target.name",
    "patchesJson6902[].target.namespace",
    "patchesJson6902[].target.version",
    "patchesStrategicMerge",
  ],
  // v1beta2's valuesFile survives conversion to the stored v1 (helm.ts).
  "HelmChart/v1/spec": ["valuesFile"],
  // v2beta valuesFile and post-renderer patches survive conversion to the stored v2 (helmrelease-schema.ts);
  // dependsOn across kinds, in the shape of Flux's open helm-controller#1480 (decision 0041).
  "HelmRelease/v2/spec": [
    "chart.spec.valuesFile",
    "dependsOn[].apiVersion",
    "dependsOn[].kind",
    "dependsOn[].ready",
    "postRenderers[].kustomize.patchesJson6902",
    "postRenderers[].kustomize.patchesJson6902[].patch",
    "postRenderers[].kustomize.patchesJson6902[].patch[].from",
    "postRenderers[].kustomize.patchesJson6902[].patch[].op",
    "postRenderers[].kustomize.patchesJson6902[].patch[].path",
    "postRenderers[].kustomize.patchesJson6902[].patch[].value",
    "postRenderers[].kustomize.patchesJson6902[].target",
    "postRenderers[].kustomize.patchesJson6902[].target.annotationSelector",
    "postRenderers[].kustomize.patchesJson6902[].target.group",
    "postRenderers[].kustomize.patchesJson6902[].target.kind",
    "postRenderers[].kustomize.patchesJson6902[].target.labelSelector",
    "postRenderers[].kustomize.patchesJson6902[].target.name",
    "postRenderers[].kustomize.patchesJson6902[].target.namespace",
    "postRenderers[].kustomize.patchesJson6902[].target.version",
    "postRenderers[].kustomize.patchesStrategicMerge",
  ],
  // Flux's v1beta3 Alert and Provider have no status; flotilla's keep v1beta2's conditions (decision 0037).
  "Alert/v1beta3/status": ["conditions", ...CONDITION_FIELDS, "observedGeneration"],
  "Provider/v1beta3/status": ["conditions", ...CONDITION_FIELDS, "observedGeneration"],
};

type Version = { name: string; served: boolean; schema: { openAPIV3Schema: Schema } };
type Crd = { spec: { names: { kind: string }; versions: Version[] } };
const crds = fluxCrds() as unknown as Crd[];

function paths(s: Schema, prefix: string, out: string[]): string[] {
  for (const [k, c] of Object.entries((s.properties as Record<string, Schema>) ?? {})) {
    out.push(prefix + k);
    paths(c, `${prefix}${k}.`, out);
  }
  if (s.items) paths(s.items as Schema, `${prefix.replace(/\.$/, "")}[].`, out);
  return out;
}

/** Where a schema is not structural: a node without a type that does not preserve unknown fields. */
function unstructured(s: Schema, at: string): string[] {
  const here = !s.type && !s["x-kubernetes-preserve-unknown-fields"] && !s["x-kubernetes-int-or-string"] ? [at] : [];
  const props = Object.entries((s.properties as Record<string, Schema>) ?? {}).flatMap(([k, c]) =>
    unstructured(c, `${at}.${k}`),
  );
  const items = s.items ? unstructured(s.items as Schema, `${at}[]`) : [];
  return [...here, ...props, ...items];
}

const cases = crds.flatMap((crd) => crd.spec.versions.map((v) => [crd.spec.names.kind, v.name, v] as const));

describe("CRDs of the kinds flotilla serves", () => {
  it("serve the versions they always served (v1 stored, v1beta2, v1beta1; v2 and its betas for HelmRelease; OCIRepository never had v1beta1; Alert and Provider v1beta3 and v1beta2)", () => {
    expect(Object.fromEntries(crds.map((c) => [c.spec.names.kind, c.spec.versions.map((v) => v.name)]))).toEqual({
      GitRepository: ["v1", "v1beta2", "v1beta1"],
      HelmRepository: ["v1", "v1beta2", "v1beta1"],
      HelmChart: ["v1", "v1beta2", "v1beta1"],
      OCIRepository: ["v1", "v1beta2"],
      Kustomization: ["v1", "v1beta2", "v1beta1"],
      HelmRelease: ["v2", "v2beta2", "v2beta1"],
      Receiver: ["v1", "v1beta2", "v1beta1"],
      Alert: ["v1beta3", "v1beta2"],
      Provider: ["v1beta3", "v1beta2"],
    });
  });

  it.each(cases)("%s %s: spec and status are structural, so the API server prunes unknown fields", (_, __, v) => {
    const root = v.schema.openAPIV3Schema.properties as Record<string, Schema>;
    for (const part of ["spec", "status"]) {
      expect(root[part]!["x-kubernetes-preserve-unknown-fields"]).toBeUndefined();
      expect(unstructured(root[part]!, part)).toEqual([]);
    }
  });

  it.each(cases)("%s %s: has every field of Flux's CRD, and only the documented extras", (kind, _, v) => {
    const root = v.schema.openAPIV3Schema.properties as Record<string, Schema>;
    for (const part of ["spec", "status"] as const) {
      const ours = paths(root[part]!, "", []).sort();
      const theirs: string[] = flux[kind][v.name][part];
      expect(ours.filter((p) => !theirs.includes(p))).toEqual(EXTRA[`${kind}/${v.name}/${part}`] ?? []);
      expect(theirs.filter((p) => !ours.includes(p))).toEqual([]);
    }
  });
});

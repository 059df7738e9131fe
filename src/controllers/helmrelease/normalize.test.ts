import { describe, expect, it } from "vitest";
import type { HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { normalizeSpec } from "./normalize.js";

const chart = (spec: Record<string, unknown>) =>
  ({
    spec: { chart: "app", sourceRef: { kind: "HelmRepository", name: "repo" }, ...spec },
  }) as HelmReleaseSpec["chart"];
const base: HelmReleaseSpec = { interval: "5m", chart: chart({}) };

describe("normalizeSpec: v2beta fields with their v2 meaning", () => {
  it("leaves a v2 spec as it is", () => {
    const spec: HelmReleaseSpec = {
      ...base,
      chart: chart({ valuesFiles: ["a.yaml"] }),
      install: { crds: "CreateReplace" },
      postRenderers: [{ kustomize: { patches: [{ patch: "p" }], images: [{ name: "nginx", newTag: "1" }] } }],
    };
    expect(normalizeSpec(spec)).toEqual(spec);
  });

  it("merges chart.spec.valuesFile before valuesFiles, as helm-controller did, and drops the old field", () => {
    const out = normalizeSpec({
      ...base,
      chart: chart({ valuesFile: "prod.yaml", valuesFiles: ["a.yaml", "b.yaml"] }),
    });
    expect(out.chart?.spec.valuesFiles).toEqual(["prod.yaml", "a.yaml", "b.yaml"]);
    expect(out.chart?.spec).not.toHaveProperty("valuesFile");
    expect(normalizeSpec({ ...base, chart: chart({ valuesFile: "only.yaml" }) }).chart?.spec.valuesFiles).toEqual([
      "only.yaml",
    ]);
  });

  it("reads an empty valuesFile as no values file", () => {
    const out = normalizeSpec({ ...base, chart: chart({ valuesFile: "" }) });
    expect(out.chart?.spec).toEqual(chart({})!.spec);
  });

  it("reads install.skipCRDs: true as crds: Skip", () => {
    expect(normalizeSpec({ ...base, install: { skipCRDs: true, replace: true } }).install).toEqual({
      crds: "Skip",
      replace: true,
    });
  });

  it("lets an explicit install.crds win over skipCRDs, as the old controller did", () => {
    expect(normalizeSpec({ ...base, install: { skipCRDs: true, crds: "CreateReplace" } }).install).toEqual({
      crds: "CreateReplace",
    });
  });

  it("reads install.skipCRDs: false as the default policy", () => {
    expect(normalizeSpec({ ...base, install: { skipCRDs: false } }).install).toEqual({});
  });

  it("turns patchesStrategicMerge and patchesJson6902 into patches, in kustomize's order (SMP, patches, JSON 6902)", () => {
    const smp = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "app" }, spec: { replicas: 3 } };
    const ops = [{ op: "add", path: "/metadata/labels/x", value: "y" }];
    const out = normalizeSpec({
      ...base,
      postRenderers: [
        {
          kustomize: {
            patches: [{ patch: "kept", target: { kind: "Service" } }],
            patchesStrategicMerge: [smp, "kind: ConfigMap\n"],
            patchesJson6902: [{ patch: ops, target: { kind: "Deployment", name: "app" } }],
            images: [{ name: "nginx", newTag: "1.27" }],
          },
        },
        {},
      ],
    });
    expect(out.postRenderers).toEqual([
      {
        kustomize: {
          patches: [
            { patch: JSON.stringify(smp) },
            { patch: "kind: ConfigMap\n" },
            { patch: "kept", target: { kind: "Service" } },
            { patch: JSON.stringify(ops), target: { kind: "Deployment", name: "app" } },
          ],
          images: [{ name: "nginx", newTag: "1.27" }],
        },
      },
      {},
    ]);
  });

  it("drops empty old patch lists without inventing an empty patches field", () => {
    const out = normalizeSpec({ ...base, postRenderers: [{ kustomize: { patchesStrategicMerge: [] } }] });
    expect(out.postRenderers).toEqual([{ kustomize: {} }]);
  });

  it("does not modify the spec it is given (the object read from the API)", () => {
    const spec: HelmReleaseSpec = {
      ...base,
      chart: chart({ valuesFile: "v.yaml" }),
      install: { skipCRDs: true },
      postRenderers: [{ kustomize: { patchesStrategicMerge: [{ kind: "X" }] } }],
    };
    const before = structuredClone(spec);
    normalizeSpec(spec);
    expect(spec).toEqual(before);
  });
});

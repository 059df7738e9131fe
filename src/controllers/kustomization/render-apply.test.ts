import { describe, expect, it } from "vitest";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import {
  KUSTOMIZATION_FIELD_MANAGER,
  kustomizationApplyOptions,
  prunedEntries,
  withOwnerLabels,
} from "./render-apply.js";

const ks = (spec: Partial<Kustomization["spec"]> = {}): Kustomization =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "apps", namespace: "flux-system" },
    spec: { interval: "1m", path: "./", sourceRef: { kind: "GitRepository", name: "repo" }, ...spec },
    status: {
      inventory: {
        entries: [
          { id: "apps_web_apps_Deployment", v: "v1" },
          { id: "apps_old__ConfigMap", v: "v1" },
        ],
      },
    },
  }) as unknown as Kustomization;

describe("how a Kustomization is applied, said once for the controller and the previews", () => {
  it("applies as kustomize-controller with the Kustomization as owner, its force and last inventory", () => {
    const options = kustomizationApplyOptions(ks({ force: true }));
    expect(options).toEqual({
      fieldManager: "kustomize-controller",
      owner: { group: "kustomize.toolkit.fluxcd.io", name: "apps", namespace: "flux-system" },
      force: true,
      previousInventory: ks().status!.inventory,
    });
    expect(KUSTOMIZATION_FIELD_MANAGER).toBe("kustomize-controller");
    expect(kustomizationApplyOptions(ks(), "platform-applier").fieldManager).toBe("platform-applier");
  });

  it("prunes what the last inventory has and the new set lacks, only with spec.prune", () => {
    const kept = { entries: [{ id: "apps_web_apps_Deployment", v: "v1" }] };
    expect(prunedEntries(ks({ prune: true }), kept)).toEqual([{ id: "apps_old__ConfigMap", v: "v1" }]);
    expect(prunedEntries(ks({ prune: false }), kept)).toEqual([]);
  });

  it("labels the rendered objects with the owner labels the apply sets, leaving the render untouched", () => {
    const rendered: KubeObject[] = [
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "apps", labels: { app: "a" } } },
    ];
    expect(withOwnerLabels(rendered, ks())[0]!.metadata.labels).toEqual({
      app: "a",
      "kustomize.toolkit.fluxcd.io/name": "apps",
      "kustomize.toolkit.fluxcd.io/namespace": "flux-system",
    });
    expect(rendered[0]!.metadata.labels).toEqual({ app: "a" });
  });
});

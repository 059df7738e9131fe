// FleetKustomization's children are Kustomizations: the cluster's kubeconfig Secret, its values in
// postBuild.substitute (over the template's of the same name) and in the path — or the fallback path
// when that cluster's own directory is not in the revision it will read.
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { clusterVariables, expandClusterVariables } from "../clusters.js";
import type { ChildKind } from "../children/child-kind.js";
import { FLEET_KUSTOMIZATION_LABEL } from "../children/fleet-dependencies.js";
import { fleetKustomizationFiles } from "./artifact-files.js";
import { PINNABLE_KINDS, sweepPinned } from "../rollout/pinned-source.js";
import { liveRevision, pinnedSpec, pinTemplateSource } from "./rollout-source.js";
import type { KubeObject } from "../../api/meta/object.js";

export { FLEET_KUSTOMIZATION_LABEL };

export const fleetKustomizationKind: ChildKind<FleetKustomization> = {
  parent: SERVED_KINDS.FleetKustomization,
  child: SERVED_KINDS.Kustomization,
  parentLabel: FLEET_KUSTOMIZATION_LABEL,
  childSpec(fk, c, files) {
    const vars = clusterVariables(c);
    const spec: KustomizationSpec = structuredClone(fk.spec.template.spec);
    if (spec.path) spec.path = expandClusterVariables(spec.path, vars, "spec.template.spec.path");
    if (fk.spec.fallbackPath && files && !files.hasDirectory(spec.path ?? "."))
      spec.path = expandClusterVariables(fk.spec.fallbackPath, vars, "spec.fallbackPath");
    const ref = c.spec.kubeConfig.secretRef;
    spec.kubeConfig = { secretRef: { name: ref.name, ...(ref.key ? { key: ref.key } : {}) } };
    spec.postBuild = { ...spec.postBuild, substitute: { ...(spec.postBuild?.substitute ?? {}), ...vars } };
    return spec as unknown as Record<string, unknown>;
  },
  revisionOf: (k) => (k.status as { lastAppliedRevision?: string } | undefined)?.lastAppliedRevision,
  filesFor: fleetKustomizationFiles,
  filesSource: (fk) => (fk.spec.fallbackPath ? fk.spec.template.spec.sourceRef : undefined),
  orphanPatch: { spec: { deletionPolicy: "Orphan" } },
  pins: {
    live: liveRevision,
    pin: pinTemplateSource,
    pinnedSpec: (spec, handle) =>
      pinnedSpec(spec as unknown as KustomizationSpec, handle) as unknown as Record<string, unknown>,
    handleOf: (k) => (k.spec as unknown as KustomizationSpec).sourceRef?.name,
    sweep: sweepPinned,
    // A new revision moves a staged rollout, and may change which clusters fall back.
    sources: PINNABLE_KINDS.map((kind) => ({
      kind: SERVED_KINDS[kind],
      parentsOf: (repo: KubeObject, parents: FleetKustomization[]) =>
        parents.filter(
          (p) =>
            p.metadata.namespace === repo.metadata.namespace &&
            (p.spec.rollout || p.spec.fallbackPath) &&
            p.spec.template.spec.sourceRef.kind === kind &&
            p.spec.template.spec.sourceRef.name === repo.metadata.name,
        ),
    })),
  },
};

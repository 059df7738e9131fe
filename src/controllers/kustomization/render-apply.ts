// What a Kustomization renders and how its controller applies it, said once: the build of spec.path,
// the owner labels, the apply options (field manager, force, the previous inventory) and what prune
// deletes. The reconciler applies by it, and `flotilla plan`, `build` and `diff` preview by it, so a
// preview cannot say other than what the controller will do.
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { Inventory, InventoryEntry } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import { type Owner, type ResourceManagerOptions, setOwnerLabels, staleEntries } from "../../ssa/index.js";
import type { SopsKeys } from "../../binaries/sops/index.js";
import type { Redactor } from "../../ssa/index.js";
import { buildKustomizationObjects, buildKustomizationObjectsDecrypted } from "./build.js";

/** kustomize-controller's field manager: the one the apply writes as and drift is judged by. */
export const KUSTOMIZATION_FIELD_MANAGER = "kustomize-controller";

/** The owner labels every applied object carries, and prune requires before it deletes. */
export const kustomizationApplyOwner = (ks: Kustomization): Owner => ({
  group: KUSTOMIZE_GROUP,
  name: ks.metadata.name,
  namespace: ks.metadata.namespace!,
});

/** How the set is applied; `fieldManager` only differs when the controller was given another. */
export function kustomizationApplyOptions(
  ks: Kustomization,
  fieldManager = KUSTOMIZATION_FIELD_MANAGER,
): ResourceManagerOptions {
  return {
    fieldManager,
    owner: kustomizationApplyOwner(ks),
    force: ks.spec.force,
    previousInventory: ks.status?.inventory ?? { entries: [] },
  };
}

/** spec.path of an unpacked artifact built as the controller builds it (build.ts), substitutions included. */
export const renderKustomization = (
  artifactDir: string,
  ks: Kustomization,
  vars: Record<string, string>,
  strict = false,
): KubeObject[] => buildKustomizationObjects(artifactDir, ks.spec, vars, strict);

/**
 * renderKustomization with spec.decryption: SOPS-encrypted sources and objects decrypted with `keys`
 * (sops-keys.ts), in memory; decrypted Secret values are handed to `secrets` for masking.
 */
export const renderKustomizationDecrypted = (
  artifactDir: string,
  ks: Kustomization,
  vars: Record<string, string>,
  strict: boolean,
  keys: SopsKeys,
  secrets: Redactor,
): Promise<KubeObject[]> => buildKustomizationObjectsDecrypted(artifactDir, ks.spec, vars, strict, keys, secrets);

/** The rendered objects as the apply writes them: with the owner labels (what `build` prints). */
export const withOwnerLabels = (objects: KubeObject[], ks: Kustomization): KubeObject[] =>
  objects.map((o) => {
    const labelled = { ...o, metadata: { ...o.metadata } };
    setOwnerLabels(labelled, kustomizationApplyOwner(ks));
    return labelled;
  });

/** Whether objects the new set no longer has are deleted (spec.prune). */
export const prunes = (ks: Kustomization): boolean => !!ks.spec.prune;

/** What prune deletes once `kept` is applied: the last inventory's entries the new set lacks (spec.prune). */
export const prunedEntries = (ks: Kustomization, kept: Inventory): InventoryEntry[] =>
  prunes(ks) ? staleEntries(ks.status?.inventory, kept) : [];

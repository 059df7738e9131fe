// What the Kustomization NAME would do with the manifests in a local directory, computed the way its
// controller computes it: the in-cluster object's spec (namespace, targetNamespace, patches, images,
// components, postBuild substitutions read from the cluster), the owner labels, and a server-side dry
// run against *its* target — this cluster impersonating its service account, or the remote cluster of
// its kubeConfig Secret (flux skips those: "diff not supported for remote clusters").
import { existsSync, statSync } from "node:fs";
import { SERVED_KINDS } from "../../../api/kinds.js";
import { pathOf } from "../../../api/paths.js";
import type { Kustomization } from "../../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { targetCluster } from "../../../controllers/kit/target-cluster.js";
import {
  renderKustomization,
  renderKustomizationDecrypted,
  withOwnerLabels,
} from "../../../controllers/kustomization/render-apply.js";
import { DECRYPTION_HINT, DecryptionError } from "../../../controllers/kustomization/sops-decrypt.js";
import { LOCAL_DECRYPTION_HINT, previewKeyring } from "./decryption-keys.js";
import { substitutionVariables } from "../../../controllers/kustomization/variables.js";
import type { Cluster } from "../../../kube/cluster.js";
import { NotFoundError } from "../../../kube/errors.js";
import { type PlanEntry, Redactor } from "../../../ssa/index.js";
import { diffKustomizationOn } from "../../../fleet/plan/online-backend.js";
import { UsageError } from "../../errors.js";

export interface Preview {
  ks: Kustomization;
  objects: KubeObject[];
  redactor: Redactor;
  target: Cluster;
}

const ksPath = (ns: string, name: string) => pathOf(SERVED_KINDS.Kustomization, ns, name);

/**
 * Builds `dir` as Kustomization `name` would; objects carry the owner labels the controller sets. With
 * spec.decryption, SOPS-encrypted inputs are decrypted in memory with `decryptionKeys` (files) or the
 * in-cluster key Secret; decrypted values join the redactor, so output masks them.
 */
export async function previewKustomization(
  cluster: Cluster,
  ns: string,
  name: string,
  dir: string,
  decryptionKeys: string[] = [],
): Promise<Preview> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`invalid resource path "${dir}": not a directory`);
  let ks: Kustomization;
  try {
    ks = await cluster.client.get<Kustomization>(ksPath(ns, name));
  } catch (err) {
    if (err instanceof NotFoundError) throw new UsageError(`Kustomization '${ns}/${name}' not found`);
    throw err;
  }
  const redactor = new Redactor();
  const vars = await substitutionVariables(cluster, ks, redactor);
  // --path is the directory spec.path points at in the source: build it as that path.
  const local = { ...ks, spec: { ...ks.spec, path: "./" } };
  const keyring = await previewKeyring(cluster, ks, dir, local.spec, decryptionKeys);
  let built: KubeObject[];
  try {
    built = keyring
      ? await renderKustomizationDecrypted(dir, local, vars, false, keyring, redactor)
      : renderKustomization(dir, local, vars);
  } catch (err) {
    if (err instanceof DecryptionError)
      throw new UsageError(err.message.replace(DECRYPTION_HINT, LOCAL_DECRYPTION_HINT));
    throw err;
  } finally {
    await keyring?.close();
  }
  const objects = withOwnerLabels(built, ks);
  redactor.addObjects(objects);
  const target = await targetCluster(cluster, ks, undefined);
  return { ks, objects, redactor, target };
}

export interface DiffResult {
  entries: PlanEntry[];
  /** Inventory subjects (`Kind/ns/name`) the new set no longer has, pruned on apply (spec.prune). */
  deleted: string[];
}

export const diffKustomization = (p: Preview): Promise<DiffResult> =>
  diffKustomizationOn(p.target, p.ks, p.objects, p.redactor);

// postBuild variables: substituteFrom ConfigMaps and Secrets in order, then the inline substitute
// map on top (Flux's precedence). An optional source that does not exist is skipped. Values read
// from Secrets are handed to the redactor, so no failure message can carry them.
// Read from the Kustomization's own namespace only, as in Flux: substituteFrom has no namespace field.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { Cluster } from "../../kube/cluster.js";
import type { Redactor } from "../../ssa/index.js";
import { NotFoundError } from "../../kube/errors.js";
import { ReconcileFailure } from "../kit/failure.js";

export async function substitutionVariables(
  cluster: Cluster,
  ks: Kustomization,
  secrets: Redactor,
): Promise<Record<string, string>> {
  const vars: Record<string, string> = {};
  for (const from of ks.spec.postBuild?.substituteFrom ?? []) {
    const kind = from.kind === "Secret" ? USED_KINDS.Secret : USED_KINDS.ConfigMap;
    try {
      const obj = await cluster.client.get<{ data?: Record<string, string> }>(
        pathOf(kind, ks.metadata.namespace, from.name),
      );
      for (const [k, v] of Object.entries(obj.data ?? {}))
        vars[k] = from.kind === "Secret" ? Buffer.from(v, "base64").toString("utf8") : v;
      if (from.kind === "Secret") secrets.addValues(Object.keys(obj.data ?? {}).map((k) => vars[k]!));
    } catch (err) {
      if (!(err instanceof NotFoundError && from.optional))
        throw new ReconcileFailure(
          "BuildFailed",
          `substitute from '${from.kind}/${from.name}' failed: ${(err as Error).message}`,
        );
    }
  }
  return { ...vars, ...ks.spec.postBuild?.substitute };
}

// A Git forge provider's exported inputs, as the operator's callGitProvider computes them: the token is
// the secretRef's `password` (both `username` and `password` required; a GitHub App's keys refused by
// name — flotilla does not mint installation tokens), TLS from certSecretRef, the listing
// (forge-inputs.ts), then spec.skip against what status.exportedInputs holds, then defaultValues.
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import type { Cluster } from "../../kube/cluster.js";
import { ReconcileFailure } from "../kit/failure.js";
import { checkGitea, forgeOf, listForge } from "./forge-inputs.js";
import { restoreSkipped, withDefaults } from "./forge-results.js";
import type { InputSet } from "./inputs.js";
import { type CallBudget, secretOf } from "./provider-http.js";
import { filterOf } from "./provider-filters.js";

async function tokenOf(cluster: Cluster, p: ResourceSetInputProvider): Promise<string> {
  const data = await secretOf(cluster, p, "secretRef");
  if (!data) return "";
  const where = `${p.metadata.namespace}/${(p.spec.secretRef as { name: string }).name}`;
  if (forgeOf(p.spec.type) === "GitHub" && data.githubAppID !== undefined)
    throw new ReconcileFailure(
      "UnsupportedField",
      `secret '${where}' holds a GitHub App (githubAppID), which flotilla does not exchange for installation tokens: put a personal access token in 'username' and 'password'`,
      { stalled: true },
    );
  for (const key of ["username", "password"])
    if (data[key] === undefined) throw new Error(`invalid secret '${where}': key '${key}' is missing`);
  return data.password!.trim();
}

export async function forgeInputs(
  cluster: Cluster,
  p: ResourceSetInputProvider,
  budget: CallBudget,
): Promise<InputSet[]> {
  let token: string;
  try {
    token = await tokenOf(cluster, p);
    if (forgeOf(p.spec.type) === "Gitea")
      await checkGitea(p, token, budget).catch((err: Error) => {
        throw new Error(`could not create Gitea client: ${err.message}`);
      });
  } catch (err) {
    if (err instanceof ReconcileFailure) throw err;
    throw new Error(`failed to create Git provider: ${(err as Error).message}`);
  }
  try {
    const results = await listForge(p, filterOf(p), token, budget);
    if (!results.length) return [];
    const skip = ((p.spec.skip as { labels?: string[] } | undefined)?.labels ?? []).filter(Boolean);
    const kept = restoreSkipped(results, skip, p.status?.exportedInputs ?? []);
    return kept.map((r) => withDefaults(p.spec.defaultValues, r));
  } catch (err) {
    if (err instanceof ReconcileFailure) throw err;
    throw new Error(`failed to call Git provider: ${(err as Error).message}`);
  }
}

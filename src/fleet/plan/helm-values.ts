// Every value a HelmRelease takes from a Secret (valuesFrom): the whole text and each leaf of it when it
// is YAML, so that no plan, diff or error shows one.
import { parse } from "yaml";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Every scalar of a values document as text: a number or boolean a chart prints is a value too. */
const leaves = (v: unknown): string[] =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean"
    ? [String(v)]
    : isMap(v) || Array.isArray(v)
      ? Object.values(v).flatMap(leaves)
      : [];

export async function secretValues(cluster: Cluster, hr: HelmRelease): Promise<{ values: string[] }> {
  const values: string[] = [];
  for (const ref of hr.spec.valuesFrom ?? []) {
    if (ref.kind !== "Secret") continue;
    const secret = await cluster.client
      .get<{ data?: Record<string, string> }>(pathOf(USED_KINDS.Secret, hr.metadata.namespace, ref.name))
      .catch(() => undefined);
    for (const raw of Object.values(secret?.data ?? {})) {
      const text = Buffer.from(raw, "base64").toString("utf8");
      values.push(text);
      try {
        values.push(...leaves(parse(text)));
      } catch {
        // not YAML: the whole text is the value (a targetPath)
      }
    }
  }
  return { values };
}

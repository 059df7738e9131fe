// FluxInstance spec.sharding {key, shards} against what runs: the operator deploys one set of controllers
// per shard (--watch-label-selector=<key>=<shard>) and restricts the main ones to !<key>; flotilla's
// equivalent is `flotilla install --shards` (install/shards.ts), a flotilla-controller-<shard> Deployment
// per shard. The mapping is in effect when this process runs with !<key> and every shard has a
// Deployment in the runtime namespace whose controller selects it (Flux's "key in (shard)" or the
// operator's "key=shard"); otherwise the condition says which part is missing and how to deploy it.
import { USED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { requirementsOf } from "../kit/label-selector.js";

export { requirementsOf };

export const DEFAULT_SHARD_KEY = "sharding.fluxcd.io/key";

/** A controller Deployment of the runtime namespace and the selector its container runs with. */
export interface ShardDeployment {
  name: string;
  selector: string;
  /** Replicas available / wanted, as the Deployment's status says. */
  available: number;
  replicas: number;
}

/** The values of `key` a selector takes objects for (key=v, key==v, key in (v, w)). */
export function shardsSelected(selector: string, key: string): string[] {
  const values: string[] = [];
  for (const r of requirementsOf(selector)) {
    const eq = /^(.+?)\s*==?\s*(.+)$/.exec(r);
    if (eq && eq[1] === key) values.push(eq[2]!.trim());
    const set = /^(.+?)\s+in\s*\((.*)\)$/.exec(r);
    if (set && set[1] === key) values.push(...set[2]!.split(",").map((v) => v.trim()));
  }
  return values;
}

export const excludesKey = (selector: string | undefined, key: string) =>
  selector !== undefined && requirementsOf(selector).includes(`!${key}`);

/** Every Deployment of the namespace whose first container runs with --watch-label-selector. */
export async function shardDeployments(cluster: Cluster, namespace: string): Promise<ShardDeployment[]> {
  const list = await cluster.client.listAll<KubeObject>(pathOf(USED_KINDS.Deployment, namespace));
  const out: ShardDeployment[] = [];
  for (const d of list.items) {
    const spec = d.spec as { replicas?: number; template?: { spec?: { containers?: { args?: string[] }[] } } };
    const args = spec.template?.spec?.containers?.[0]?.args ?? [];
    const at = args.findIndex((a) => a === "--watch-label-selector" || a.startsWith("--watch-label-selector="));
    if (at < 0) continue;
    const selector = args[at]!.includes("=") ? args[at]!.slice(args[at]!.indexOf("=") + 1) : (args[at + 1] ?? "");
    const status = (d.status ?? {}) as { availableReplicas?: number };
    out.push({
      name: d.metadata.name,
      selector,
      available: status.availableReplicas ?? 0,
      replicas: spec.replicas ?? 1,
    });
  }
  return out;
}

export interface ShardingMapping {
  statement: string;
  /** What is not deployed (the condition is then False); undefined when the shards run as asked. */
  missing?: string;
}

export function mapSharding(
  sharding: { key?: string; shards: string[] },
  facts: { watchLabelSelector?: string; shardDeployments?: ShardDeployment[] },
): ShardingMapping {
  const key = sharding.key || DEFAULT_SHARD_KEY;
  const deployments = facts.shardDeployments ?? [];
  const mainOk = excludesKey(facts.watchLabelSelector, key);
  const found = sharding.shards.map((shard) => ({
    shard,
    d: deployments.find((d) => shardsSelected(d.selector, key).includes(shard)),
  }));
  const running = found
    .filter((f) => f.d)
    .map(({ shard, d }) => `${shard} by Deployment ${d!.name} (${d!.available}/${d!.replicas} available)`);
  const absent = found.filter((f) => !f.d).map((f) => f.shard);
  const main = mainOk
    ? `this controller runs --watch-label-selector=${facts.watchLabelSelector}`
    : `this controller runs ${facts.watchLabelSelector ? `--watch-label-selector=${facts.watchLabelSelector}` : "no selector"}, not !${key}`;
  const parts = [main, ...running, ...(absent.length ? [`no Deployment selects ${absent.join(", ")}`] : [])];
  if (mainOk && !absent.length) return { statement: `sharding by ${key}: in effect: ${parts.join("; ")}` };
  const flag = key === DEFAULT_SHARD_KEY ? "" : ` --shard-key ${key}`;
  const missing = `sharding by ${key} is not deployed as asked: ${parts.join("; ")}; deploy it with flotilla install --shards ${sharding.shards.join(",")}${flag}`;
  return { statement: missing, missing };
}

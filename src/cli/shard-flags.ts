// `flotilla install --shards N|a,b [--shard-key K]`: the controller Deployments of Flux's sharding
// (install/shards.ts). Apart from install-flags.ts so bootstrap can take them up too.
import type { Command } from "commander";
import type { KubeObject } from "../api/meta/object.js";
import { SHARD_KEY, type Sharding, shardingProblem, shardNames, withShards } from "../install/shards.js";
import { UsageError } from "./errors.js";

export const MAX_SHARDS = 64;

export function addShardFlags(cmd: Command): Command {
  return cmd
    .option(
      "--shards <n|names>",
      "also deploy one controller per shard: a number N (shard1…shardN) or comma-separated names; objects labelled <shard-key>=<shard> go to that shard, the main controller keeps the unlabelled ones",
    )
    .option("--shard-key <key>", "the label key objects are sharded by", SHARD_KEY);
}

/** The sharding the flags ask for, or undefined without --shards; a clear UsageError on bad names. */
export function shardingOf(f: { shards?: string; shardKey?: string }): Sharding | undefined {
  if (f.shards === undefined) return undefined;
  const s = { key: f.shardKey ?? SHARD_KEY, shards: shardNames(f.shards) };
  if (!s.shards.length) throw new UsageError(`--shards "${f.shards}" names no shard: give a number or names`);
  if (s.shards.length > MAX_SHARDS)
    throw new UsageError(`--shards ${s.shards.length}: at most ${MAX_SHARDS} shards (each is a Deployment)`);
  const problem = shardingProblem(s);
  if (problem) throw new UsageError(`--shards/--shard-key: ${problem}`);
  return s;
}

/** The manifests with the shards' Deployments when --shards is given, else unchanged. */
export function applyShardFlags(objects: KubeObject[], f: { shards?: string; shardKey?: string }): KubeObject[] {
  const s = shardingOf(f);
  return s ? withShards(objects, s) : objects;
}

// `flotilla install --shards`: Flux's sharding (fluxcd.io "Flux sharding and horizontal scaling", and the
// Flux Operator's FluxInstance spec.sharding, internal/builder shard<N>.kustomization.yaml) applied to
// flotilla's manifests. The main controller gets --watch-label-selector=!<key> (it takes every object
// without the key); each shard is a copy of its Deployment named flotilla-controller-<shard>, annotated
// sharding.fluxcd.io/role: shard, with its own pod label (app: flotilla-controller-<shard>) and artifact
// Service (flotilla-artifacts-<shard>, advertised in --storage-adv-addr), taking <key> in (<shard>).
// Alerts, Providers, Receivers, the webhook receiver and the event endpoint stay with the main
// controller, whatever their shard key, as notification-controller stays unsharded in Flux: a shard runs
// with --events-addr=http://notification-controller.<ns>.svc.cluster.local./ (as Flux's shard
// controllers do) and posts its events there, so one Alert without a shard label hears every shard. A
// shard does not make fleet Clusters from Kamaji's TenantControlPlanes (--kamaji-discovery=false): one
// writer for them, the main controller.
import type { KubeObject } from "../api/meta/object.js";

export const SHARD_KEY = "sharding.fluxcd.io/key";
export const SHARD_ROLE_ANNOTATION = "sharding.fluxcd.io/role";
export const MAIN_DEPLOYMENT = "flotilla-controller";
const ARTIFACTS_SERVICE = "flotilla-artifacts";
/** The main controller's event endpoint (manifests.ts), named as Flux's shards post to it. */
const EVENTS_SERVICE = "notification-controller";

export interface Sharding {
  /** The label key objects are sharded by (FluxInstance spec.sharding.key). */
  key: string;
  /** The shard names (label values), each run by its own Deployment. */
  shards: string[];
}

/** The selector of the main controller: every object without the key. */
export const mainSelector = (key: string) => `!${key}`;
/** The selector of one shard's controller, as Flux's documentation writes it. */
export const shardSelector = (key: string, shard: string) => `${key} in (${shard})`;
export const shardDeploymentName = (shard: string) => `${MAIN_DEPLOYMENT}-${shard}`;

const SHARD_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Why a sharding cannot be deployed (names that cannot be label values or Deployment names), or undefined. */
export function shardingProblem(s: Sharding): string | undefined {
  if (!LABEL_KEY.test(s.key) || s.key.length > 317) return `shard key "${s.key}" is not a label key`;
  const bad = s.shards.find((n) => !SHARD_NAME.test(n) || n.length > 63 - MAIN_DEPLOYMENT.length - 1);
  if (bad !== undefined)
    return `shard name "${bad}" cannot name a Deployment and be a label value: use lower-case letters, digits and '-', at most ${63 - MAIN_DEPLOYMENT.length - 1} characters`;
  const twice = s.shards.find((n, i) => s.shards.indexOf(n) !== i);
  if (twice !== undefined) return `shard "${twice}" is named twice`;
  return undefined;
}

type Container = { args: string[] };
type PodSpec = { containers: Container[] };
type DeploymentSpec = {
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
};
const specOf = (d: KubeObject) => d.spec as unknown as DeploymentSpec;
const clone = <T>(o: T): T => structuredClone(o);

/** The manifests with the main controller restricted to unsharded objects and one Deployment per shard. */
export function withShards(objects: KubeObject[], s: Sharding): KubeObject[] {
  if (!s.shards.length) return objects;
  const isMain = (o: KubeObject) => o.kind === "Deployment" && o.metadata.name === MAIN_DEPLOYMENT;
  const main = objects.find(isMain);
  const artifacts = objects.find((o) => o.kind === "Service" && o.metadata.name === ARTIFACTS_SERVICE);
  if (!main || !artifacts) throw new Error(`the manifests have no ${MAIN_DEPLOYMENT} Deployment to shard`);
  const restricted = clone(main);
  specOf(restricted).template.spec.containers[0]!.args.push(`--watch-label-selector=${mainSelector(s.key)}`);
  const budget = objects.find((o) => o.kind === "PodDisruptionBudget" && o.metadata.name === MAIN_DEPLOYMENT);
  const extra = s.shards.flatMap((shard) => [
    ...shardObjects(main, artifacts, s.key, shard),
    ...(budget ? [shardBudget(budget, shard)] : []),
  ]);
  // Each shard's objects right after the main Deployment, so an export reads in order.
  const at = objects.indexOf(main);
  return [...objects.slice(0, at), restricted, ...extra, ...objects.slice(at + 1)];
}

function shardObjects(main: KubeObject, artifacts: KubeObject, key: string, shard: string): KubeObject[] {
  const name = shardDeploymentName(shard);
  const labels = { app: name };
  const service = clone(artifacts);
  service.metadata.name = `${ARTIFACTS_SERVICE}-${shard}`;
  service.metadata.annotations = { ...service.metadata.annotations, [SHARD_ROLE_ANNOTATION]: "shard" };
  (service.spec as { selector: Record<string, string> }).selector = labels;
  const d = clone(main);
  d.metadata.name = name;
  d.metadata.annotations = { ...d.metadata.annotations, [SHARD_ROLE_ANNOTATION]: "shard" };
  const spec = specOf(d);
  spec.selector.matchLabels = labels;
  spec.template.metadata.labels = { ...spec.template.metadata.labels, ...labels };
  const container = spec.template.spec.containers[0]!;
  const eventsUrl = `http://${EVENTS_SERVICE}.${main.metadata.namespace}.svc.cluster.local./`;
  container.args = [
    ...container.args.map((a) =>
      a.startsWith("--storage-adv-addr=")
        ? a.replace(`//${ARTIFACTS_SERVICE}.`, `//${ARTIFACTS_SERVICE}-${shard}.`)
        : a.startsWith("--events-addr=")
          ? `--events-addr=${eventsUrl}`
          : a,
    ),
    `--watch-label-selector=${shardSelector(key, shard)}`,
    "--kamaji-discovery=false",
  ];
  return [d, service];
}

/** --pod-disruption-budget: each shard's pod kept through voluntary disruptions as the main one is. */
function shardBudget(budget: KubeObject, shard: string): KubeObject {
  const b = clone(budget);
  b.metadata.name = shardDeploymentName(shard);
  (b.spec as { selector: unknown }).selector = { matchLabels: { app: shardDeploymentName(shard) } };
  return b;
}

/** `--shards N` (shard1…shardN, as Flux's documentation names them) or `--shards a,b`: the shard names. */
export function shardNames(value: string): string[] {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Array.from({ length: Number(v) }, (_, i) => `shard${i + 1}`);
  return v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
}

// What a FluxInstance asks of its distribution and what flotilla, acting as the distribution, does with
// each field (decision 0043). flotilla runs Flux's controllers as one process whose behaviour is set by
// its flags, so the fields that patch the operator's Deployments map to those flags: when the running
// process already has them the field is "in effect", otherwise the statement names the restart that
// would put it in effect. Only the multi-tenancy lockdown blocks the sync (a tenant repository must not
// be delivered to a cluster that is not locked down); everything else is stated, never silently dropped.
import { type FluxInstanceSpec } from "../../api/operator/fluxinstance.js";
import { maxSatisfying } from "../../sources/semver.js";
import { mapSharding, type ShardDeployment } from "./sharding.js";

/** The Flux release whose APIs flotilla serves (README: tested against flux v2.9.5). */
export const FLUX_API_VERSION = "v2.9.5";

/** The components flotilla's controller process provides, and which of its controllers do the work. */
export const PROVIDED_COMPONENTS: Record<string, string> = {
  "source-controller": "GitRepository, OCIRepository, HelmRepository, HelmChart",
  "kustomize-controller": "Kustomization",
  "helm-controller": "HelmRelease",
  "notification-controller": "Receiver, Alert, Provider",
};
export const DEFAULT_COMPONENTS = Object.keys(PROVIDED_COMPONENTS);

/** The running process's flags a FluxInstance is compared with. */
export interface ProcessFacts {
  noCrossNamespaceRefs?: boolean;
  defaultServiceAccount?: string;
  watchLabelSelector?: string;
  concurrent?: number;
  /** The runtime namespace's controller Deployments with a --watch-label-selector (read when spec.sharding is set). */
  shardDeployments?: ShardDeployment[];
}

export interface Mapping {
  /** One line per field: what maps and what cannot. */
  statements: string[];
  /** Why the sync must not be applied (the lockdown asked for is not in effect); undefined when it may. */
  blocked?: string;
  /** What is asked for but not deployed (the condition is False; the sync still applies). */
  pending?: string;
}

const SIZE_CONCURRENCY: Record<string, number> = { small: 5, medium: 10, large: 20 };

/** The flags Flux's multitenant profile gives the controllers (the operator's profiles.go). */
export const lockdownFlags = (sa: string) => [
  "--no-cross-namespace-refs=true",
  "--no-remote-bases=true",
  `--default-service-account=${sa}`,
];

/** spec.migrateResources (default true in the operator), stated as not done. */
export const MIGRATE_NOT_DONE =
  "migrateResources: not done: flotilla does not migrate stored Flux resources to their CRDs' latest storage version (status.storedVersions is left as it is); set it to false to say so";

export function mapInstance(spec: FluxInstanceSpec, facts: ProcessFacts): Mapping {
  const out: string[] = [];
  let blocked: string | undefined;
  const d = spec.distribution;
  let matches = false;
  try {
    matches = maxSatisfying([FLUX_API_VERSION.slice(1)], d.version) !== undefined;
  } catch {
    // Not a semver range the operator could match either: stated below as outside the range.
  }
  out.push(
    `distribution: flotilla serves the Flux ${FLUX_API_VERSION} APIs in place of Flux ${d.version}` +
      (matches
        ? ""
        : ` (outside the requested range: the v1 APIs a ${d.version} repository uses are served as written)`) +
      `; registry ${d.registry}${d.artifact ? `, artifact ${d.artifact}` : ""}${d.variant ? `, variant ${d.variant}` : ""} not pulled: flotilla's image is the distribution`,
  );
  const components = spec.components?.length ? spec.components : DEFAULT_COMPONENTS;
  const provided = components.filter((c) => c in PROVIDED_COMPONENTS);
  const missing = components.filter((c) => !(c in PROVIDED_COMPONENTS));
  out.push(
    `components: ${provided.join(", ") || "none"} run in flotilla's one controller process` +
      (missing.length ? `; not provided by flotilla: ${missing.join(", ")}` : ""),
  );
  const c = spec.cluster ?? {};
  if (c.multitenant) {
    const sa = c.tenantDefaultServiceAccount || "default";
    const inEffect = facts.noCrossNamespaceRefs === true && facts.defaultServiceAccount === sa;
    if (inEffect)
      out.push(`cluster.multitenant: in effect (--no-cross-namespace-refs=true --default-service-account=${sa})`);
    else
      blocked = `cluster.multitenant asks for the multi-tenancy lockdown, which this controller process does not run with: restart it with ${lockdownFlags(sa).join(" ")} (flotilla install --multi-tenant writes them)`;
    if (c.multitenantWorkloadIdentity || c.objectLevelWorkloadIdentity)
      out.push("cluster.multitenantWorkloadIdentity/objectLevelWorkloadIdentity: not provided by flotilla");
  }
  let pending: string | undefined;
  if (spec.sharding) {
    const sharding = mapSharding(spec.sharding, facts);
    out.push(sharding.statement);
    pending = sharding.missing;
  }
  if (c.size) {
    const want = SIZE_CONCURRENCY[c.size]!;
    out.push(
      `cluster.size ${c.size}: --concurrent=${want}` +
        (facts.concurrent === want
          ? " (in effect)"
          : ` (this process runs with --concurrent=${facts.concurrent ?? "its default"})`),
    );
  }
  if (c.type && c.type !== "kubernetes") out.push(`cluster.type ${c.type}: no platform profile in flotilla`);
  if (c.domain && c.domain !== "cluster.local")
    out.push(`cluster.domain ${c.domain}: set by flotilla install, not here`);
  if (c.networkPolicy === false) out.push("cluster.networkPolicy false: flotilla install --network-policy=false");
  if (spec.storage)
    out.push(
      `storage ${spec.storage.class}/${spec.storage.size}: the controller's --storage-path volume (flotilla install)`,
    );
  if (spec.kustomize?.patches?.length)
    out.push(
      `kustomize.patches (${spec.kustomize.patches.length}): not applied: they patch the operator's Flux manifests, which flotilla does not deploy`,
    );
  // The operator's default is true (it rewrites every stored object and trims storedVersions): not done here.
  if (spec.migrateResources !== false) out.push(MIGRATE_NOT_DONE);
  return { statements: out, ...(blocked ? { blocked } : {}), ...(pending ? { pending } : {}) };
}

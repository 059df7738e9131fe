// The multicluster-gitops procedures, as edits of a fleet repository working tree: init an environment,
// add a cluster (local or remote) to it, remove one, add a tenant, add a tenant's app. Each is idempotent
// (a second run reports every file unchanged), touches only files flotilla wrote (written-files.ts), and
// is checked whole before anything is written. Live changes (a kubeconfig Secret, the environment's
// bootstrap objects) are the CLI's: no kubeconfig ever reaches the tree.
import { parse } from "yaml";
import { apiVersionOf, SERVED_KINDS } from "../../api/kinds.js";
import { FleetError } from "../errors.js";
import {
  appFile,
  appFleet,
  clusterFile,
  ENV_LABEL,
  envDir,
  kustomizationFile,
  remoteTenantDir,
  tenantDir,
  tenantNamespaceFleet,
  tenantRemoteObjects,
  tenantSource,
  yamlOf,
} from "./layout.js";
import type { WorkingTree } from "./written-files.js";

export class InvalidProcedure extends FleetError {
  override name = "InvalidProcedure";
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
export function checkName(what: string, name: string): void {
  if (!DNS_LABEL.test(name))
    throw new InvalidProcedure(`${what} "${name}" must be a DNS label: lower-case letters, digits and '-', at most 63`);
}

/** The resources a kustomization.yaml lists (none when it does not exist). */
function listed(tree: WorkingTree, path: string): string[] {
  const text = tree.read(path);
  if (text === undefined) return [];
  const doc = parse(text) as { resources?: string[] } | null;
  return doc?.resources ?? [];
}

function relist(tree: WorkingTree, path: string, add: string[] = [], drop: string[] = []): void {
  const resources = listed(tree, path)
    .filter((r) => !drop.includes(r))
    .concat(add);
  tree.write(path, kustomizationFile(resources));
}

function requireEnv(tree: WorkingTree, env: string): void {
  if (tree.read(`${envDir(env)}/kustomization.yaml`) === undefined)
    throw new InvalidProcedure(
      `environment ${env} is not in this repository (no ${envDir(env)}/kustomization.yaml): run flotilla fleet init-env ${env} first`,
    );
}

export function initEnv(tree: WorkingTree, env: string): void {
  checkName("environment", env);
  relist(tree, `${envDir(env)}/kustomization.yaml`, ["clusters", "tenants"]);
  relist(tree, `${envDir(env)}/clusters/kustomization.yaml`);
  relist(tree, `${envDir(env)}/tenants/kustomization.yaml`);
}

export interface ClusterEntry {
  name: string;
  labels: Record<string, string>;
  secretRef: { name: string; key?: string };
}

export function addCluster(tree: WorkingTree, env: string, c: ClusterEntry): void {
  checkName("cluster", c.name);
  requireEnv(tree, env);
  tree.write(
    clusterFile(env, c.name),
    yamlOf({
      apiVersion: apiVersionOf(SERVED_KINDS.Cluster),
      kind: "Cluster",
      metadata: { name: c.name, namespace: env, labels: { ...c.labels, [ENV_LABEL]: env } },
      spec: { kubeConfig: { secretRef: c.secretRef }, interval: "1m" },
    }),
  );
  relist(tree, `${envDir(env)}/clusters/kustomization.yaml`, [`${c.name}.yaml`]);
}

/** The cluster leaves the environment: its Cluster goes, and with it every app the fleet put there (pruned). */
export function removeCluster(tree: WorkingTree, env: string, name: string): void {
  checkName("cluster", name);
  requireEnv(tree, env);
  if (tree.read(clusterFile(env, name)) === undefined)
    throw new InvalidProcedure(`cluster ${name} is not in environment ${env} (no ${clusterFile(env, name)})`);
  tree.remove(clusterFile(env, name));
  relist(tree, `${envDir(env)}/clusters/kustomization.yaml`, [], [`${name}.yaml`]);
}

export function addTenant(tree: WorkingTree, env: string, tenant: string, url: string, branch: string): void {
  checkName("tenant", tenant);
  requireEnv(tree, env);
  const dir = tenantDir(env, tenant);
  tree.write(`${dir}/source.yaml`, yamlOf(tenantSource(env, tenant, url, branch)));
  tree.write(`${dir}/namespace.yaml`, yamlOf(tenantNamespaceFleet(env, tenant)));
  relist(tree, `${dir}/kustomization.yaml`, ["source.yaml", "namespace.yaml"]);
  tree.write(`${remoteTenantDir(env, tenant)}/namespace.yaml`, yamlOf(...tenantRemoteObjects(env, tenant)));
  relist(tree, `${remoteTenantDir(env, tenant)}/kustomization.yaml`, ["namespace.yaml"]);
  relist(tree, `${envDir(env)}/tenants/kustomization.yaml`, [tenant]);
}

export function addApp(tree: WorkingTree, env: string, tenant: string, app: string): void {
  checkName("app", app);
  requireEnv(tree, env);
  if (tree.read(`${tenantDir(env, tenant)}/source.yaml`) === undefined)
    throw new InvalidProcedure(
      `tenant ${tenant} is not in environment ${env}: run flotilla fleet add-tenant ${tenant} --env ${env} first`,
    );
  tree.write(appFile(env, tenant, app), yamlOf(appFleet(env, tenant, app)));
  relist(tree, `${tenantDir(env, tenant)}/kustomization.yaml`, [`${app}.yaml`]);
}

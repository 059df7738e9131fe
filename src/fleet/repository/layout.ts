// Where a fleet repository keeps an environment, and what each file holds. One directory per
// environment (`environments/<env>/`, applied to the management cluster by the environment's
// Kustomization), so one branch or several can hold them:
//   clusters/<cluster>.yaml          the Cluster (namespace <env>, labelled with the environment)
//   tenants/<tenant>/source.yaml     the tenant's GitRepository (its repository and branch)
//   tenants/<tenant>/namespace.yaml  a FleetKustomization giving every cluster of the environment the
//                                    tenant's namespace and its role binding there (remote/)
//   tenants/<tenant>/<app>.yaml      a FleetKustomization of the tenant's app on every cluster, as the
//                                    tenant's service account, `./<app>/<cluster>` or `./<app>/base`
//   remote/tenants/<tenant>/         what namespace.yaml applies on each cluster
// Every directory has a kustomization.yaml listing what is in it.
import { stringify } from "yaml";
import { apiVersionOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";

export const ENV_LABEL = "fleet.flotilla.dev/environment";
export const envDir = (env: string) => `environments/${env}`;
export const clusterFile = (env: string, cluster: string) => `${envDir(env)}/clusters/${cluster}.yaml`;
export const tenantDir = (env: string, tenant: string) => `${envDir(env)}/tenants/${tenant}`;
export const remoteTenantDir = (env: string, tenant: string) => `${envDir(env)}/remote/tenants/${tenant}`;
export const appFile = (env: string, tenant: string, app: string) => `${tenantDir(env, tenant)}/${app}.yaml`;
/** The namespace a tenant's apps run in on every cluster of the environment (the multicluster-gitops name). */
export const tenantNamespace = (env: string, tenant: string) => `${env}-${tenant}`;
/** The GitRepository holding the fleet repository itself, in the environment's namespace. */
export const FLEET_SOURCE = "fleet";

const HEADER = "# Written by flotilla (flotilla fleet ...); edit freely — flotilla will then leave this file alone.\n";
export const yamlOf = (...docs: object[]) => HEADER + docs.map((d) => stringify(d, { lineWidth: 0 })).join("---\n");

export function kustomizationFile(resources: string[]): string {
  return yamlOf({
    apiVersion: "kustomize.config.k8s.io/v1beta1",
    kind: "Kustomization",
    resources: [...new Set(resources)].sort(),
  });
}

const envSelector = (env: string) => ({ matchLabels: { [ENV_LABEL]: env } });

export function tenantSource(env: string, tenant: string, url: string, branch: string): KubeObject {
  return {
    apiVersion: apiVersionOf(SERVED_KINDS.GitRepository),
    kind: "GitRepository",
    metadata: { name: tenant, namespace: env },
    spec: { interval: "1m", url, ref: { branch } },
  } as KubeObject;
}

export function tenantRemoteObjects(env: string, tenant: string): KubeObject[] {
  const ns = tenantNamespace(env, tenant);
  return [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: `${tenant}-admin`, namespace: ns },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "admin" },
      // The identity the app's Kustomization impersonates on each cluster: its own namespace's service account.
      subjects: [{ kind: "ServiceAccount", name: tenant, namespace: env }],
    },
  ] as KubeObject[];
}

function fleetKustomization(env: string, name: string, spec: Record<string, unknown>, extra = {}): KubeObject {
  return {
    apiVersion: apiVersionOf(SERVED_KINDS.FleetKustomization),
    kind: "FleetKustomization",
    metadata: { name, namespace: env },
    spec: {
      clusterSelector: envSelector(env),
      // A cluster leaves an environment by a commit (remove-cluster): what the fleet put there goes too,
      // after the grace period (decision 0031).
      onClusterRemoval: "Prune",
      ...extra,
      template: { spec: { interval: "5m", retryInterval: "15s", prune: true, ...spec } },
    },
  } as KubeObject;
}

export const tenantNamespaceFleet = (env: string, tenant: string) =>
  fleetKustomization(env, `${tenant}-namespace`, {
    sourceRef: { kind: "GitRepository", name: FLEET_SOURCE },
    path: `./${remoteTenantDir(env, tenant)}`,
  });

export const appFleet = (env: string, tenant: string, app: string) =>
  fleetKustomization(
    env,
    `${tenant}-${app}`,
    {
      sourceRef: { kind: "GitRepository", name: tenant },
      path: `./${app}/\${cluster_name}`,
      targetNamespace: tenantNamespace(env, tenant),
      serviceAccountName: tenant,
    },
    // Per cluster, after the tenant's namespace and role binding there — and removed before them.
    { fallbackPath: `./${app}/base`, dependsOn: [{ name: `${tenant}-namespace` }] },
  );

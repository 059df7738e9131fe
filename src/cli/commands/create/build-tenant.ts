// `create tenant`: for each namespace in order, the Namespace, the tenant's ServiceAccount and the
// RoleBinding `<tenant>-reconciler` binding it (and the gotk:<ns>:reconciler user) to a ClusterRole —
// flux's create_tenant.go, whose output flux2-multi-tenancy commits as tenants/base/<tenant>/rbac.yaml.
import { UsageError } from "../../errors.js";

export interface TenantArgs {
  namespaces: string[];
  clusterRole: string;
  serviceAccount?: string;
  skipNamespace: boolean;
  labels?: Record<string, string>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function tenantObjects(tenant: string, a: TenantArgs): Record<string, unknown>[] {
  if (!a.namespaces.length) throw new UsageError("with-namespace is required");
  if (!DNS_LABEL.test(tenant) || tenant.length > 63)
    throw new UsageError(`invalid tenant name '${tenant}': must be a lowercase RFC 1123 label`);
  const labels = { ...(a.labels ?? {}), "toolkit.fluxcd.io/tenant": tenant };
  const sa = a.serviceAccount || tenant;
  return a.namespaces.flatMap((ns) => {
    if (!DNS_LABEL.test(ns) || ns.length > 63)
      throw new UsageError(`invalid namespace '${ns}': must be a lowercase RFC 1123 label`);
    const objects: Record<string, unknown>[] = [];
    if (!a.skipNamespace) objects.push({ apiVersion: "v1", kind: "Namespace", metadata: { labels, name: ns } });
    objects.push({ apiVersion: "v1", kind: "ServiceAccount", metadata: { labels, name: sa, namespace: ns } });
    objects.push({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { labels, name: `${tenant}-reconciler`, namespace: ns },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: a.clusterRole },
      subjects: [
        { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: `gotk:${ns}:reconciler` },
        { kind: "ServiceAccount", name: sa, namespace: ns },
      ],
    });
    return objects;
  });
}

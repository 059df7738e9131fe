// `flotilla fleet add-tenant TENANT --env ENV --url URL --branch B`: the tenant's repository as a source
// of the environment, and its namespace `<env>-<tenant>` with a role binding on every cluster of the
// environment — its apps are applied there as the tenant's service account, nowhere else.
import { addTenant } from "../../../fleet/repository/procedures.js";
import { tenantNamespace } from "../../../fleet/repository/layout.js";
import { type FleetFlags, finish, fleetVerb, treeOf } from "./fleet-common.js";

export function addTenantCommand() {
  return fleetVerb(
    "add-tenant",
    "Add a tenant to an environment: its repository, and its namespace on every cluster",
    "flotilla fleet add-tenant yakuza --env dev --repo ./fleet-infra --url https://github.com/yakuza/gitops-manifests --branch dev",
  )
    .argument("<tenant>")
    .requiredOption("--url <url>", "the tenant's manifests repository")
    .option("--branch <branch>", "the tenant's branch for this environment", "main")
    .action((tenant: string, f: FleetFlags & { url: string; branch: string }) => {
      const tree = treeOf(f);
      addTenant(tree, f.env, tenant, f.url, f.branch);
      finish(tree, `commit and push: namespace ${tenantNamespace(f.env, tenant)} on every cluster of ${f.env}`);
    });
}

// `flotilla fleet add-app TENANT APP --env ENV`: the tenant's app on every cluster of the environment,
// read from `./<app>/<cluster>` in the tenant's repository, or `./<app>/base` for a cluster without its
// own directory, into the tenant's namespace as the tenant's service account.
import { addApp } from "../../../fleet/repository/procedures.js";
import { type FleetFlags, finish, fleetVerb, treeOf } from "./fleet-common.js";

export function addAppCommand() {
  return fleetVerb(
    "add-app",
    "Add a tenant's app to every cluster of an environment",
    "flotilla fleet add-app yakuza azure-vote --env dev --repo ./fleet-infra",
  )
    .argument("<tenant>")
    .argument("<app>")
    .action((tenant: string, app: string, f: FleetFlags) => {
      const tree = treeOf(f);
      addApp(tree, f.env, tenant, app);
      finish(tree, `commit and push: ${tenant}'s ${app} on every cluster of ${f.env}`);
    });
}

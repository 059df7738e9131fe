// `flotilla fleet ...`: the multicluster-gitops procedures as commands, each idempotent and safe to
// re-run, editing a fleet repository working tree (only files flotilla wrote) and, where Git must not be
// involved, the management cluster (docs/guides/multicluster.md).
import { Command } from "commander";
import { addAppCommand } from "./fleet/add-app.js";
import { addClusterCommand } from "./fleet/add-cluster.js";
import { addTenantCommand } from "./fleet/add-tenant.js";
import { initEnvCommand } from "./fleet/init-env.js";
import { removeClusterCommand } from "./fleet/remove-cluster.js";

export function fleetCommand(): Command {
  return new Command("fleet")
    .description("Fleet repository procedures: environments, clusters, tenants and apps")
    .addCommand(initEnvCommand())
    .addCommand(addClusterCommand())
    .addCommand(removeClusterCommand())
    .addCommand(addTenantCommand())
    .addCommand(addAppCommand());
}

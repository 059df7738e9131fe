// `flotilla create`: Flux's create verbs with Flux's flags and defaults. With --export the YAML is
// byte-identical to flux's for the same flags (test/unit/create-export-parity.test.ts holds flux's
// goldens); without it the object is applied and waited for until Ready.
import { Command } from "commander";
import { alertCommands } from "./create/create-alert.js";
import { clusterCommand } from "./create/create-cluster.js";
import { receiverCommand } from "./create/create-receiver.js";
import { sourceCommands } from "./create/create-sources.js";
import { secretCommands, tenantCommand } from "./create/create-tenant-secrets.js";
import { workloadCommands } from "./create/create-workloads.js";

export function createCommand(): Command {
  const cmd = new Command("create")
    .description("Create or update sources and resources (print them with --export)")
    .addCommand(sourceCommands())
    .addCommand(tenantCommand())
    .addCommand(secretCommands())
    .addCommand(clusterCommand());
  for (const c of [...workloadCommands(), ...alertCommands()]) cmd.addCommand(c);
  return cmd.addCommand(receiverCommand());
}

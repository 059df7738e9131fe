// The `flotilla` command line: the verbs under one root, with Flux's global flags (global-flags.ts).
// runner.ts turns a verb's outcome into the exit code: errors are one `✗ message` line, like the flux
// CLI; stack traces are reserved for bugs (--verbose or FLOTILLA_DEBUG=1 shows them).
import { Command } from "commander";
import { closeAllConnections } from "../kube/client.js";
import { approveCommand } from "./commands/approve.js";
import { listCommand, pullCommand, pushCommand, tagCommand } from "./commands/artifact.js";
import { fleetCommand } from "./commands/fleet.js";
import { statusCommand } from "./commands/status.js";
import { planCommand } from "./commands/plan.js";
import { dashboardCommand } from "./commands/dashboard.js";
import { bootstrapCommand } from "./commands/bootstrap.js";
import { uninstallCommand } from "./commands/uninstall.js";
import { buildCommand, diffCommand } from "./commands/build-diff.js";
import { controllerCommand } from "./commands/controller.js";
import { createCommand } from "./commands/create.js";
import { deleteCommand } from "./commands/delete.js";
import { demoCommand } from "./commands/demo.js";
import { eventsCommand } from "./commands/events.js";
import { exportCommand } from "./commands/export.js";
import { getCommand } from "./commands/get.js";
import { reconcileCommand } from "./commands/reconcile.js";
import { resumeCommand, suspendCommand } from "./commands/suspend-resume.js";
import { traceCommand } from "./commands/trace.js";
import { statsCommand } from "./commands/stats.js";
import { checkCommand } from "./commands/check.js";
import { logsCommand } from "./commands/logs.js";
import { completionCommand } from "./commands/completion.js";
import { treeCommand } from "./commands/tree.js";
import { helmPostRenderCommand } from "./commands/helm-post-render.js";
import { installCommand } from "./commands/install.js";
import { kustomizeCommand } from "./commands/kustomize.js";
import { localCommand } from "./commands/local.js";
import { addMissingExamples } from "./examples.js";
import { addGlobalFlags } from "./global-flags.js";
import { runProgram } from "./runner.js";
import { VERSION } from "./version.js";

export { VERSION };

export function buildProgram(): Command {
  const program = new Command("flotilla")
    .description("GitOps for fleets of Kubernetes clusters")
    .version(VERSION, "-v, --version")
    .option("--verbose", "show the stack trace of an unexpected error")
    .showHelpAfterError()
    // Root options only before the verb: `install --version 1.2.3` is the image tag, not flotilla's version.
    .enablePositionalOptions()
    .exitOverride();
  addGlobalFlags(program);
  program.addCommand(localCommand());
  program.addCommand(kustomizeCommand());
  program.addCommand(controllerCommand());
  program.addCommand(installCommand());
  program.addCommand(bootstrapCommand());
  program.addCommand(uninstallCommand());
  program.addCommand(demoCommand());
  program.addCommand(createCommand());
  program.addCommand(getCommand());
  program.addCommand(exportCommand());
  program.addCommand(buildCommand());
  program.addCommand(diffCommand());
  program.addCommand(pushCommand());
  program.addCommand(pullCommand());
  program.addCommand(tagCommand());
  program.addCommand(listCommand());
  program.addCommand(reconcileCommand());
  program.addCommand(suspendCommand());
  program.addCommand(resumeCommand());
  program.addCommand(approveCommand());
  program.addCommand(fleetCommand());
  program.addCommand(statusCommand());
  program.addCommand(planCommand());
  program.addCommand(dashboardCommand());
  program.addCommand(treeCommand());
  program.addCommand(traceCommand());
  program.addCommand(statsCommand());
  program.addCommand(checkCommand());
  program.addCommand(logsCommand());
  program.addCommand(completionCommand(() => program));
  program.addCommand(deleteCommand());
  program.addCommand(eventsCommand());
  // Run by helm, not by people: the HelmRelease post-renderer plugin's command.
  program.addCommand(helmPostRenderCommand(), { hidden: true });
  addMissingExamples(program);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argvIn: string[]): Promise<number> {
  // --verbose is global: it may stand anywhere on the line, so it is taken out before commander parses.
  const verbose = argvIn.includes("--verbose");
  // pflag reads `-n=flux-system` as `-n flux-system` (flux's docs and tests write it so); commander would
  // take "=flux-system" as the value.
  const argv = argvIn
    .filter((a) => a !== "--verbose")
    .flatMap((a) => (/^-[A-Za-z]=/.test(a) ? [a.slice(0, 2), a.slice(3)] : [a]));
  const program = buildProgram();
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
  for (const cmd of all(program)) cmd.exitOverride();
  try {
    return await runProgram(program, argv, verbose);
  } finally {
    await closeAllConnections();
  }
}

// The `flotilla` command line. Errors become one `✗ message` line and a non-zero exit code,
// like the flux CLI; stack traces are reserved for bugs (FLOTILLA_DEBUG=1 shows them).
import { Command, CommanderError } from "commander";
import { closeAllConnections } from "../kube/client.js";
import { KubeError } from "../kube/errors.js";
import { KustomizeError } from "../kustomize/errors.js";
import { YamlSyntaxError } from "../kustomize/yaml/parse.js";
import { LocalFleetError } from "../local/errors.js";
import { controllerCommand } from "./commands/controller.js";
import { demoCommand } from "./commands/demo.js";
import { installCommand } from "./commands/install.js";
import { kustomizeCommand } from "./commands/kustomize.js";
import { localCommand } from "./commands/local.js";
import { failure } from "./output.js";
import { VERSION } from "./version.js";

export { VERSION };

export function buildProgram(): Command {
  const program = new Command("flotilla")
    .description("GitOps for fleets of Kubernetes clusters")
    .version(VERSION, "-v, --version")
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(localCommand());
  program.addCommand(kustomizeCommand());
  program.addCommand(controllerCommand());
  program.addCommand(installCommand());
  program.addCommand(demoCommand());
  return program;
}

function isExpectedError(err: unknown): err is Error {
  return (
    err instanceof LocalFleetError ||
    err instanceof KubeError ||
    err instanceof KustomizeError ||
    err instanceof YamlSyntaxError
  );
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  for (const cmd of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) cmd.exitOverride();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (isExpectedError(err)) {
      failure(err.message);
    } else {
      failure(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
      if (process.env.FLOTILLA_DEBUG) console.error(err);
    }
    return 1;
  } finally {
    await closeAllConnections();
  }
}

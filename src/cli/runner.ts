// The one place where a verb's outcome becomes an exit code, as the flux CLI does: a commander error
// keeps its code, ExitError(code) ends with that code, any other flotilla error is one `✗` line and the
// verb's failure code (1, or 2 for the verbs whose 1 means "changes": plan, diff). Anything else is a
// bug: "unexpected error", with the stack under --verbose or FLOTILLA_DEBUG=1.
import { type Command, CommanderError } from "commander";
import { isFlotillaError } from "../util/errors.js";
import { ExitError } from "./errors.js";
import { failure } from "./output.js";

const failureCodes = new WeakMap<Command, number>();

/** The exit code of this verb (and the verbs under it) when it fails: plan and diff say 2, as flux diff does. */
export function failsWith<C extends Command>(cmd: C, code: number): C {
  failureCodes.set(cmd, code);
  return cmd;
}

function failureCodeOf(cmd: Command | undefined): number {
  for (let c: Command | null | undefined = cmd; c; c = c.parent) {
    const code = failureCodes.get(c);
    if (code !== undefined) return code;
  }
  return 1;
}

/** Parses `argv` with `program` and runs the verb; returns the exit code. */
export async function runProgram(program: Command, argv: string[], verbose: boolean): Promise<number> {
  let verb: Command | undefined;
  program.hook("preAction", (_root, action) => {
    verb = action;
  });
  try {
    await program.parseAsync(argv);
    // Only the helm post-renderer (helm-post-render, run by helm) still says its code through process.exitCode.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof ExitError) {
      if (err.message) failure(err.message);
      return err.code;
    }
    if (isFlotillaError(err)) {
      failure(err.message);
    } else {
      // A bug: say so, and show the stack with --verbose (or FLOTILLA_DEBUG=1).
      failure(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
      if (process.env.FLOTILLA_DEBUG || verbose) console.error(err);
    }
    return failureCodeOf(verb);
  }
}

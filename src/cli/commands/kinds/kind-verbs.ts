// A verb's sub-commands, one per kind of the registry that has the verb's facet: `<verb> <kind>` and,
// for sources, `<verb> <group> <kind>` (flux's `reconcile source git`, `get sources git`). What was a
// loop copied into reconcile, delete, suspend and resume (and a hand-written list in get).
import type { Command } from "commander";
import { CLI_KINDS, type CliKind, type KindVerb } from "./registry.js";

type Facet = "get" | "operate";
type Make<F extends Facet> = (name: string, aliases: string[], kind: CliKind & Required<Pick<CliKind, F>>) => Command;

/**
 * Adds the kinds' sub-commands to `verb`, the two-word ones to `group` (itself added by the caller);
 * `skip` leaves out the kinds flux has no such sub-command for.
 */
export function addKindVerbs<F extends Facet>(
  verb: Command,
  group: Command,
  facet: F,
  make: Make<F>,
  skip?: (kind: CliKind & Required<Pick<CliKind, F>>) => boolean,
): Command {
  for (const kind of CLI_KINDS) {
    const named: KindVerb | undefined = kind[facet];
    if (!named || skip?.(kind as CliKind & Required<Pick<CliKind, F>>)) continue;
    const sub = make(named.path.at(-1)!, named.aliases, kind as CliKind & Required<Pick<CliKind, F>>);
    (named.path.length > 1 ? group : verb).addCommand(sub);
  }
  return verb;
}

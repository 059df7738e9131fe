// Flux's global flags, persistent on its root command: --kubeconfig, --context, -n/--namespace and
// --timeout may stand before the verb (`flotilla --kubeconfig F -n apps get ks`) as well as after it,
// where each verb declares the ones it uses. Given before the verb they are handed to it, unless the verb
// was given its own (the nearer one wins, as pflag's last-wins would have it); a verb that takes no such
// flag says so, as commander says "unknown option" after the verb.
import { type Command, Option } from "commander";
import { UsageError } from "./errors.js";

const GLOBAL_FLAGS = [
  new Option("--kubeconfig <path>", "path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config)"),
  new Option("--context <name>", "the kubeconfig context to use"),
  new Option(
    "-n, --namespace <name>",
    "the namespace scope for this operation (default: $FLUX_SYSTEM_NAMESPACE or flux-system)",
  ),
  new Option("--timeout <duration>", "timeout for this operation (default: 5m0s)"),
];

/** Declares the global flags on the root command; they reach the verb before its action runs. */
export function addGlobalFlags(program: Command): Command {
  for (const option of GLOBAL_FLAGS) program.addOption(option);
  return program.hook("preAction", (root, verb) => handOver(root, verb));
}

function handOver(root: Command, verb: Command): void {
  if (verb === root) return;
  for (const option of GLOBAL_FLAGS) {
    const key = option.attributeName();
    if (root.getOptionValueSource(key) !== "cli") continue;
    const own = verb.options.find((o) => o.attributeName() === key);
    if (!own) throw new UsageError(`${option.long} is not taken by 'flotilla ${pathOf(verb)}': leave it out`);
    if (verb.getOptionValueSource(key) === "cli") continue;
    verb.setOptionValueWithSource(key, root.getOptionValue(key), "cli");
  }
}

const pathOf = (c: Command): string => (c.parent?.parent ? `${pathOf(c.parent)} ${c.name()}` : c.name());

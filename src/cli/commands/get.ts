// `flotilla get`: the statuses of Flux objects, as `flux get` prints them — sources git|helm|chart|all,
// kustomizations (ks), helmreleases (hr), receivers and all — and of the fleet's clusters — with Flux's flags (-A, --no-header, -w,
// --status-selector, -l, --show-source) and kubectl's `-o json|yaml`.
import { Command, Option } from "commander";
import { addClusterFlags, clusterOf } from "../cluster-flags.js";
import { failure } from "../output.js";
import { type GetKind, GET_KINDS } from "./get/get-kinds.js";
import { type GetFlags, getKind, watchKind } from "./get/get-run.js";
import { UsageError } from "../errors.js";
import { addKindVerbs } from "./kinds/kind-verbs.js";

function withGetFlags(cmd: Command, showSource: boolean): Command {
  addClusterFlags(cmd)
    .option("-A, --all-namespaces", "list the requested object(s) across all namespaces")
    .option("--no-header", "skip the header when printing the results")
    .option("-w, --watch", "after listing/getting the requested object, watch for changes")
    .option(
      "--status-selector <type=status>",
      "specify the status condition name and the desired state to filter the get result, e.g. ready=false or ready!=true",
    )
    .option("-l, --label-selector <selector>", "filter objects by label selector")
    .addOption(new Option("-o, --output <format>", "print the objects instead of the table").choices(["json", "yaml"]));
  if (showSource) cmd.option("--show-source", "show the source reference for each object");
  return cmd;
}

function kindCommand(name: string, aliases: string[], kind: GetKind, example: string): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Get ${kind.entry.kind} statuses`)
    .argument("[name]", "only this object")
    .addHelpText("after", `\nExample:\n${example}`)
    .action(async (objName: string | undefined, f: GetFlags) => {
      const cluster = clusterOf(f);
      if (f.watch) {
        if (f.output) throw new UsageError("--watch prints tables only: drop --output");
        return watchKind(cluster, kind, f, objName);
      }
      process.stdout.write((await getKind(cluster, kind, f, objName)).stdout);
    });
  return withGetFlags(cmd, kind.hasSource);
}

/** `get all` / `get sources all`: every kind in turn; a failing kind is one ✗ line, the rest still print. */
function allCommand(kinds: GetKind[], description: string): Command {
  const cmd = new Command("all").description(description).action(async (f: GetFlags) => {
    if (f.watch) throw new UsageError("--watch is not supported with 'all': get one kind at a time");
    const cluster = clusterOf(f);
    for (const kind of kinds) {
      try {
        process.stdout.write((await getKind(cluster, kind, f, undefined, true)).stdout);
      } catch (err) {
        failure((err as Error).message);
      }
    }
  });
  return withGetFlags(cmd, false);
}

// flux's get_source_all.go order: OCIRepository first.
const SOURCES = [GET_KINDS.OCIRepository, GET_KINDS.GitRepository, GET_KINDS.HelmRepository, GET_KINDS.HelmChart];

export function getCommand(): Command {
  const sources = new Command("sources").aliases(["source"]).description("Get source statuses");
  const get = new Command("get").description("Get the resources and their status").addCommand(sources);
  addKindVerbs(get, sources, "get", (name, aliases, k) => kindCommand(name, aliases, k.get.columns, k.get.example));
  sources.addCommand(allCommand(SOURCES, "Get all source statuses"));
  return get.addCommand(
    allCommand(
      // flux's get_all.go order.
      [
        ...SOURCES,
        GET_KINDS.HelmRelease,
        GET_KINDS.Kustomization,
        GET_KINDS.Receiver,
        GET_KINDS.Provider,
        GET_KINDS.Alert,
      ],
      "Get all resources and statuses",
    ),
  );
}

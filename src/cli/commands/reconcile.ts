// `flotilla reconcile <kind> NAME`: trigger a reconcile now and wait for its outcome, printing what
// `flux reconcile` prints. --with-source reconciles the source first (for a HelmRelease its HelmChart,
// which reconciles its own source first); --force and --reset stamp a HelmRelease's forceAt/resetAt.
import { Command } from "commander";
import type { Cluster } from "../../kube/cluster.js";
import { addClusterFlags, type ClusterFlags, clusterOf, timeoutMsOf } from "../cluster-flags.js";
import { OutcomeError, UsageError } from "../errors.js";
import { step, success, waiting } from "../output.js";
import { addKindVerbs } from "./kinds/kind-verbs.js";
import type { OperateKind } from "./operate/operate-kinds.js";
import { outcomeOf, readObject, requestReconcile, waitHandled } from "./operate/reconcile-wait.js";

interface ReconcileFlags extends ClusterFlags {
  withSource?: boolean;
  force?: boolean;
  reset?: boolean;
}

interface Run {
  cluster: Cluster;
  deadline: number;
  flags: ReconcileFlags;
}

async function reconcileOne(run: Run, k: OperateKind, ns: string, name: string, withSource: boolean): Promise<void> {
  const obj = await readObject(run.cluster, k, ns, name);
  if (obj.spec?.suspend === true) throw new OutcomeError("resource is suspended");
  if (withSource) {
    const src = k.sourceOf?.(obj);
    if (!src)
      throw new UsageError(`cannot reconcile source of kind ${obj.spec?.sourceRef?.kind ?? obj.spec?.chartRef?.kind}`);
    await reconcileOne(run, src.kind, src.namespace, src.name, src.withItsSource);
  }
  const before = (await readObject(run.cluster, k, ns, name)).status?.lastHandledReconcileAt;
  step(`annotating ${k.entry.kind} ${name} in ${ns} namespace`);
  const extra =
    k.entry.kind === "HelmRelease"
      ? [
          ...(run.flags.force ? ["reconcile.fluxcd.io/forceAt"] : []),
          ...(run.flags.reset ? ["reconcile.fluxcd.io/resetAt"] : []),
        ]
      : [];
  await requestReconcile(run.cluster, k, ns, name, extra);
  success(`${k.entry.kind} annotated`);
  waiting(`waiting for ${k.entry.kind} reconciliation`);
  const done = await waitHandled(run.cluster, k, ns, name, before, run.deadline, run.flags.timeout);
  // flux quotes the message for a kind without a source and not for one with (reconcile.go vs reconcile_with_source.go).
  success(outcomeOf(k, done, !k.sourceOf));
}

function verb(name: string, aliases: string[], k: OperateKind): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Reconcile a ${k.entry.kind} and wait for it to finish`)
    .argument("[name]")
    .addHelpText(
      "after",
      `\nExample:\n  flotilla reconcile ${[...(k.entry.kind === "GitRepository" ? ["source"] : []), name].join(" ")} podinfo${k.sourceOf ? " --with-source" : ""}`,
    )
    .action(async (objName: string | undefined, flags: ReconcileFlags) => {
      if (!objName) throw new UsageError(`${k.entry.kind} name is required`);
      const run = { cluster: clusterOf(flags), deadline: Date.now() + timeoutMsOf(flags), flags };
      await reconcileOne(run, k, flags.namespace, objName, !!flags.withSource);
    });
  addClusterFlags(cmd);
  if (k.sourceOf) cmd.option("--with-source", `reconcile ${k.entry.kind} source`);
  if (k.entry.kind === "HelmRelease")
    cmd
      .option("--force", "force a one-off install or upgrade of the HelmRelease resource")
      .option("--reset", "reset the failure count for this HelmRelease resource");
  return cmd;
}

export function reconcileCommand(): Command {
  const root = new Command("reconcile").description("Reconcile sources and resources");
  const source = new Command("source").description("Reconcile sources");
  addKindVerbs(
    root,
    source,
    "operate",
    (name, aliases, k) => verb(name, aliases, k.operate.wording),
    (k) => !!k.operate.wording.noReconcile,
  );
  return root.addCommand(source);
}

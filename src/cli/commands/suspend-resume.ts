// `flotilla suspend|resume <kind> [NAME...] [--all]`: patch spec.suspend, printing what flux prints.
// resume then waits for each object to be Ready (by default when one name is given; --wait decides
// otherwise). Unlike flux, a name that does not exist makes the command exit 1 (flux prints ✗ and
// exits 0, which hides typos from scripts; docs/decisions/0019).
import { Command, Option } from "commander";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { addClusterFlags, type ClusterFlags, clusterOf, timeoutMsOf } from "../cluster-flags.js";
import { ExitError, OutcomeError, UsageError } from "../errors.js";
import { failure, step, success, waiting } from "../output.js";
import type { FluxObject } from "./get/get-kinds.js";
import { addKindVerbs } from "./kinds/kind-verbs.js";
import type { OperateKind } from "./operate/operate-kinds.js";
import { outcomeOf, readObject, settledOf } from "./operate/reconcile-wait.js";

interface Flags extends ClusterFlags {
  all?: boolean;
  wait?: boolean;
}

/** The named objects (each once) or, with --all, every one in the namespace; missing names reported. */
async function targets(cluster: Cluster, k: OperateKind, names: string[], f: Flags, verb: string) {
  if (!names.length && !f.all) throw new UsageError(`${k.human} name is required`);
  if (!names.length) {
    const { items } = await cluster.client.listAll<FluxObject>(pathOf(k.entry, f.namespace));
    if (!items.length) throw new UsageError(`no ${k.entry.kind} objects found in ${f.namespace} namespace`);
    return { found: items.map((o) => o.metadata.name), missing: 0 };
  }
  const found: string[] = [];
  let missing = 0;
  for (const name of new Set(names)) {
    try {
      await readObject(cluster, k, f.namespace, name);
      found.push(name);
    } catch (err) {
      missing++;
      failure(
        (err as { name?: string }).name === "NotFoundError"
          ? `${k.entry.kind} ${name} not found in ${f.namespace} namespace`
          : `failed ${verb} ${k.entry.kind} ${name} in ${f.namespace} namespace: ${(err as Error).message}`,
      );
    }
  }
  return { found, missing };
}

async function waitReady(cluster: Cluster, k: OperateKind, ns: string, name: string, deadline: number) {
  for (;;) {
    const o = await readObject(cluster, k, ns, name);
    const s = settledOf(o);
    if (s.state === "failed") throw new OutcomeError(s.message);
    if (s.state === "current" && o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True") return o;
    if (Date.now() > deadline)
      throw new OutcomeError(s.state === "in-progress" ? `timed out: ${s.why}` : outcomeOf(k, o, false));
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function suspendVerb(name: string, aliases: string[], k: OperateKind): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Suspend reconciliation of ${k.entry.kind} objects`)
    .argument("[names...]")
    .option("--all", "suspend all resources in that namespace")
    .action(async (names: string[], f: Flags) => {
      const cluster = clusterOf(f);
      const { found, missing } = await targets(cluster, k, names, f, "suspending");
      for (const n of found) {
        step(`suspending ${k.human} ${n} in ${f.namespace} namespace`);
        await cluster.client.patch(pathOf(k.entry, f.namespace, n), "merge", { spec: { suspend: true } });
        success(`${k.human} suspended`);
      }
      // Each missing name has had its ✗ line.
      if (missing) throw new ExitError(1);
    });
  return addClusterFlags(cmd);
}

function resumeVerb(name: string, aliases: string[], k: OperateKind): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Resume reconciliation of suspended ${k.entry.kind} objects`)
    .argument("[names...]")
    .option("--all", "resume all resources in that namespace")
    .addOption(new Option("--wait", "wait for the resources to be Ready (default when one name is given)"))
    .addOption(new Option("--no-wait", "return once the resources are resumed"))
    .action(async (names: string[], f: Flags) => {
      const cluster = clusterOf(f);
      const deadline = Date.now() + timeoutMsOf(f);
      const { found, missing } = await targets(cluster, k, names, f, "resuming");
      for (const n of found) {
        step(`resuming ${k.human} ${n} in ${f.namespace} namespace`);
        await cluster.client.patch(pathOf(k.entry, f.namespace, n), "merge", { spec: { suspend: false } });
        success(`${k.human} resumed`);
      }
      const shouldWait = f.wait ?? names.length === 1;
      let failed = missing;
      if (shouldWait) {
        const results = await Promise.all(
          found.map(async (n) => {
            waiting(`waiting for ${k.entry.kind} reconciliation`);
            try {
              return { n, ok: k.success(await waitReady(cluster, k, f.namespace, n, deadline)) };
            } catch (err) {
              return { n, err: (err as Error).message };
            }
          }),
        );
        for (const r of results.sort((a, b) => a.n.localeCompare(b.n))) {
          if (r.err !== undefined) {
            failed++;
            failure(`${k.entry.kind} ${r.n} reconciliation failed: ${r.err}`);
          } else {
            success(`${k.entry.kind} ${r.n} reconciliation completed`);
            success(r.ok!);
          }
        }
      }
      if (failed) throw new OutcomeError(`reconciliation failed for ${failed} ${k.entry.kind}(s)`);
    });
  return addClusterFlags(cmd);
}

function tree(root: Command, make: (name: string, aliases: string[], k: OperateKind) => Command): Command {
  const source = new Command("source").description(`${root.name()} sources`);
  addKindVerbs(root, source, "operate", (name, aliases, k) => make(name, aliases, k.operate.wording));
  return root.addCommand(source);
}

export const suspendCommand = () => tree(new Command("suspend").description("Suspend resources"), suspendVerb);
export const resumeCommand = () => tree(new Command("resume").description("Resume suspended resources"), resumeVerb);

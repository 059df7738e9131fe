// `flotilla approve fleetkustomization|fleethelmrelease|resourceset NAME [--stage S]`: opens the Manual gate of a
// staged rollout for the revision waiting at it — the approval annotation `<stage>@<revision>` and a
// reconcile request, so the controller acts at once. The revision is read from the object's status, so
// an approval never lets through a revision nobody has seen waiting; approving when no stage waits fails.
import { Command } from "commander";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { SERVED_KINDS, type ServedKind } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import { NotFoundError } from "../../kube/errors.js";
import { approval, NothingToApprove } from "../../fleet/rollout/approve.js";
import { addClusterFlags, type ClusterFlags, clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { step, success } from "../output.js";

// A ResourceSet is staged by its fleet.flotilla.dev/rollout annotation (decision 0053).
const KINDS: ServedKind[] = [SERVED_KINDS.FleetKustomization, SERVED_KINDS.FleetHelmRelease, SERVED_KINDS.ResourceSet];

function approveVerb(name: string, aliases: string[], kind: ServedKind): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Approve the ${kind.kind}'s rollout stage waiting for approval`)
    .argument("<name>")
    .option("--stage <stage>", "the stage to approve (default: the one waiting)")
    .action(async (objName: string, f: ClusterFlags & { stage?: string }) => {
      const cluster = clusterOf(f);
      const path = pathOf(kind, f.namespace, objName);
      const obj = await cluster.client.get<FleetKustomization>(path).catch((err: unknown) => {
        if (err instanceof NotFoundError)
          throw new UsageError(`${kind.kind} ${objName} not found in ${f.namespace} namespace`);
        throw err;
      });
      let approved;
      try {
        approved = approval({ ...obj, kind: kind.kind }, f.stage);
      } catch (err) {
        if (err instanceof NothingToApprove) throw new UsageError(err.message);
        throw err;
      }
      step(`approving stage ${approved.stage} of ${kind.kind} ${objName} at ${approved.revision}`);
      await cluster.client.patch(path, "merge", approved.patch);
      success(`stage ${approved.stage} approved`);
    });
  return addClusterFlags(cmd);
}

export function approveCommand(): Command {
  const root = new Command("approve").description("Approve a staged rollout's gate");
  for (const kind of KINDS) root.addCommand(approveVerb(kind.kind.toLowerCase(), kind.shortNames, kind));
  return root;
}

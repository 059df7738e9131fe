// `flotilla approve fleetkustomization|fleethelmrelease NAME [--stage S]`: opens the Manual gate of a
// staged rollout for the revision waiting at it — the approval annotation `<stage>@<revision>` and a
// reconcile request, so the controller acts at once. The revision is read from the object's status, so
// an approval never lets through a revision nobody has seen waiting; approving when no stage waits fails.
import { Command } from "commander";
import { APPROVE_ANNOTATION } from "../../api/fleet/rollout.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { SERVED_KINDS, type ServedKind } from "../../api/kinds.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import { pathOf } from "../../api/paths.js";
import { NotFoundError } from "../../kube/errors.js";
import { addClusterFlags, type ClusterFlags, clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { step, success } from "../output.js";

const KINDS: ServedKind[] = [SERVED_KINDS.FleetKustomization, SERVED_KINDS.FleetHelmRelease];

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
      const stages = obj.status?.rollout?.stages ?? [];
      if (!obj.spec.rollout)
        throw new UsageError(`${kind.kind} ${f.namespace}/${objName} has no spec.rollout: nothing to approve`);
      if (f.stage && !stages.some((s) => s.name === f.stage))
        throw new UsageError(
          `${kind.kind} ${f.namespace}/${objName} has no stage "${f.stage}" (stages: ${stages.map((s) => s.name).join(", ")})`,
        );
      const waiting = stages.find((s) => s.phase === "WaitingForApproval" && (!f.stage || s.name === f.stage));
      if (!waiting?.revision)
        throw new UsageError(
          `no stage of ${kind.kind} ${f.namespace}/${objName} is waiting for approval${f.stage ? ` (stage ${f.stage}: ${stages.find((s) => s.name === f.stage)?.phase})` : ""}`,
        );
      step(`approving stage ${waiting.name} of ${kind.kind} ${objName} at ${waiting.revision}`);
      await cluster.client.patch(path, "merge", {
        metadata: {
          annotations: {
            [APPROVE_ANNOTATION]: `${waiting.name}@${waiting.revision}`,
            [REQUESTED_AT_ANNOTATION]: new Date().toISOString(),
          },
        },
      });
      success(`stage ${waiting.name} approved`);
    });
  return addClusterFlags(cmd);
}

export function approveCommand(): Command {
  const root = new Command("approve").description("Approve a staged rollout's gate");
  for (const kind of KINDS) root.addCommand(approveVerb(kind.kind.toLowerCase(), kind.shortNames, kind));
  return root;
}

// Opening a staged rollout's Manual gate: the approval annotation `<stage>@<revision>` for the revision
// waiting at it (read from the object's status, so an approval never lets through a revision nobody has
// seen waiting) and a reconcile request, so the controller acts at once. Shared by `flotilla approve`
// and the dashboard; a ResourceSet staged by its fleet.flotilla.dev/rollout annotation (decision 0053)
// is approved the same way.
import { APPROVE_ANNOTATION, type Rollout, type RolloutStatus } from "../../api/fleet/rollout.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { KubeObject } from "../../api/meta/object.js";
import { FleetError } from "../errors.js";

export class NothingToApprove extends FleetError {
  override name = "NothingToApprove";
}

type Staged = KubeObject & { spec?: { rollout?: Rollout }; status?: { rollout?: RolloutStatus } };

/** Where a kind declares its rollout: the fleet kinds' spec.rollout, a ResourceSet's annotation. */
const ROLLOUT_ANNOTATION = "fleet.flotilla.dev/rollout";
const declared = (obj: Staged): [boolean, string] =>
  obj.kind === "ResourceSet"
    ? [obj.metadata.annotations?.[ROLLOUT_ANNOTATION] !== undefined, `annotation ${ROLLOUT_ANNOTATION}`]
    : [!!obj.spec?.rollout, "spec.rollout"];

/** The stage and revision to approve, and the merge patch that approves them; NothingToApprove otherwise. */
export function approval(obj: Staged, stage?: string): { stage: string; revision: string; patch: object } {
  const id = `${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}`;
  const stages = obj.status?.rollout?.stages ?? [];
  const [has, where] = declared(obj);
  if (!has) throw new NothingToApprove(`${id} has no ${where}: nothing to approve`);
  if (stage && !stages.some((s) => s.name === stage))
    throw new NothingToApprove(`${id} has no stage "${stage}" (stages: ${stages.map((s) => s.name).join(", ")})`);
  const waiting = stages.find((s) => s.phase === "WaitingForApproval" && (!stage || s.name === stage));
  if (!waiting?.revision)
    throw new NothingToApprove(
      `no stage of ${id} is waiting for approval${stage ? ` (stage ${stage}: ${stages.find((s) => s.name === stage)?.phase})` : ""}`,
    );
  const annotations = {
    [APPROVE_ANNOTATION]: `${waiting.name}@${waiting.revision}`,
    [REQUESTED_AT_ANNOTATION]: new Date().toISOString(),
  };
  return { stage: waiting.name, revision: waiting.revision, patch: { metadata: { annotations } } };
}

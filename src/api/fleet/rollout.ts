// A fleet kind's staged rollout (spec.rollout): stages in order, each choosing its clusters by selector;
// a revision reaches a stage only after every earlier stage has run it Ready for that stage's bakeTime
// (and, for a Manual stage, after approval). Clusters no stage selects form a last stage of their own.
import { arr, obj, str } from "../crd.js";
import { type ClusterSelector, clusterSelectorSchema } from "./selector.js";

export interface RolloutStage {
  name: string;
  clusterSelector?: ClusterSelector;
  /** How many of the stage's clusters may be moving to a new revision at once: a count or "NN%" (default: all). */
  maxUnavailable?: number | string;
  /** How long the whole stage must run a revision Ready before the next stage receives it (default 0s). */
  bakeTime?: string;
  approval?: "Auto" | "Manual";
}

export interface Rollout {
  stages: RolloutStage[];
}

export type StagePhase = "Waiting" | "WaitingForApproval" | "Progressing" | "Baking" | "Halted" | "Complete";

export interface StageStatus {
  name: string;
  /** The revision this stage is moving to (the source's for the first stage; the previous stage's completed one after). */
  revision?: string;
  /** The newest revision the whole stage has run Ready for bakeTime: what the next stage may receive. */
  completedRevision?: string;
  phase: StagePhase;
  /** The revision a Manual stage was approved for (recorded from the approval annotation). */
  approvedRevision?: string;
  /** When every cluster of the stage was first seen Ready at `revision` (the bake started). */
  readySince?: string;
  clusters: string[];
  message?: string;
}

export interface RolloutStatus {
  revision?: string;
  stages: StageStatus[];
}

/** The annotation that opens a Manual stage's gate for one revision: `<stage>@<revision>`. */
export const APPROVE_ANNOTATION = "fleet.flotilla.dev/approve";
/** The name of the last stage, holding the clusters no stage selects. */
export const UNSTAGED = "unstaged";

export const rolloutSchema = () =>
  obj(
    {
      stages: arr(
        obj(
          {
            name: str(),
            clusterSelector: clusterSelectorSchema(),
            maxUnavailable: { "x-kubernetes-int-or-string": true },
            bakeTime: str({ pattern: "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$" }),
            approval: str({ enum: ["Auto", "Manual"] }),
          },
          ["name"],
        ),
      ),
    },
    ["stages"],
  );

export const rolloutStatusSchema = () =>
  obj({
    revision: str(),
    stages: arr(
      obj(
        {
          name: str(),
          revision: str(),
          completedRevision: str(),
          approvedRevision: str(),
          phase: str(),
          readySince: str(),
          clusters: arr(str()),
          message: str(),
        },
        ["name", "phase"],
      ),
    ),
  });

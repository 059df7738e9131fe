// The GitRepository controller as the manager runs it: includers re-queued when an included
// repository's artifact changes.
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { INCLUDE_INDEX, includeIndex, includeWatch } from "./includes.js";
import { GitRepositoryReconciler } from "./reconciler.js";

export const gitRepositoryController: ControllerSetup<
  Pick<ControllerDeps, "cluster" | "storage" | "events" | "flags">
> = {
  name: "gitrepository",
  kind: { group: SOURCE_GROUP, version: "v1", kind: "GitRepository" },
  watches: [includeWatch()],
  indexes: { [INCLUDE_INDEX]: includeIndex },
  reconciler: ({ cluster, storage, events, flags }) =>
    new GitRepositoryReconciler(cluster, storage, events, {
      requeueDependencyMs: flags.requeueDependencyMs,
      artifactLimits: flags.artifactLimits,
    }),
};

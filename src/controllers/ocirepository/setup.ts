// The OCIRepository controller as the manager runs it.
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { OCIRepositoryReconciler } from "./reconciler.js";

export const ociRepositoryController: ControllerSetup<
  Pick<ControllerDeps, "cluster" | "storage" | "events" | "flags">
> = {
  name: "ocirepository",
  kind: { group: SOURCE_GROUP, version: "v1", kind: "OCIRepository" },
  reconciler: ({ cluster, storage, events, flags }) =>
    new OCIRepositoryReconciler(cluster, storage, events, { artifactLimits: flags.artifactLimits }),
};

// The one table from the action the release state asks for (release-state.ts) to its helm action's
// module; unlock and drift correction run no helm (unlock.ts, drift-correction.ts).
import type { NextAction } from "../release-state.js";
import { install } from "./install.js";
import type { HelmStep } from "./release-action.js";
import { rollback } from "./rollback.js";
import { test } from "./test.js";
import { uninstallRemediation } from "./uninstall.js";
import { upgrade } from "./upgrade.js";

export type HelmNextAction = Extract<
  NextAction,
  { kind: "install" | "upgrade" | "test" | "rollback" | "uninstall-remediation" }
>;

/** The module of the helm action the release state asks for. */
export function helmStepFor(action: HelmNextAction): HelmStep {
  switch (action.kind) {
    case "install":
      return install;
    case "upgrade":
      return upgrade;
    case "test":
      return test;
    case "rollback":
      return rollback(action.toVersion);
    case "uninstall-remediation":
      return uninstallRemediation;
  }
}

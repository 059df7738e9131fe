// One helm action in a private home: the values in a 0600 file there (removed with the home), the run
// bounded by the action's timeout plus a margin. By default it runs in the resident helm engine
// (binaries/helm/engine.ts, decision 0042): the target's kubeconfig passed as text, the post-render
// step called back into this process. With `--helm-engine=false` it is a helm process as before: the
// kubeconfig written into the home, the post-renderer plugin installed there. Either way every action
// of the HelmRelease controller starts here and is counted.
import {
  type HelmEngineOptions,
  HelmHome,
  type HelmResult,
  runHelm,
  runHelmEngine,
} from "../../../binaries/helm/index.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { ClusterEndpoint } from "../../../kube/kubeconfig.js";
import { Counter } from "../../../runtime/metrics.js";
import { objectTimeout } from "../../../util/object-timeout.js";
import { postRender } from "../post-render/render.js";
import { helmEngineOn } from "./helm-engine-switch.js";
import { kubeconfigFor, writeKubeconfig } from "./kubeconfig-file.js";

/** helm actions the HelmRelease controller started, by command: an idle cycle must add none. */
export const helmProcesses = new Counter(
  "flotilla_helmrelease_helm_processes_total",
  "helm actions (engine requests or helm processes) started by the HelmRelease controller",
);

export { helmEngineOn, useHelmEngine } from "./helm-engine-switch.js";

/** A helm command and its arguments, built in the action's home (values file, post-renderer). */
export interface HelmInvocation {
  command: string;
  args: (home: HelmHome) => string[];
}

export interface ActionRun {
  hr: HelmRelease;
  endpoint: ClusterEndpoint;
  signal?: AbortSignal;
  /** The wait for the release's objects under `--wait=flotilla` (health-exprs.ts pollerWait). */
  waitFor?: HelmEngineOptions["waitFor"];
}

/** How ReleaseRun runs helm: runAction, or a test's fake. */
export type HelmRunner = (a: HelmInvocation, r: ActionRun) => Promise<unknown>;

const MARGIN_MS = 60_000;

export async function runAction(a: HelmInvocation, r: ActionRun): Promise<HelmResult> {
  const home = new HelmHome();
  try {
    const args = a.args(home);
    // No object keeps a helm slot longer than --max-object-timeout (decision 0030): helm's own --timeout
    // is capped, so helm fails (and remediation runs) before the process is killed.
    const at = args.indexOf("--timeout") + 1;
    const timeout = objectTimeout(at ? args[at] : undefined, "5m", `the '${a.command}' action's timeout`);
    if (at) args[at] = timeout.text;
    helmProcesses.inc({ command: a.command });
    const started = Date.now();
    const common = { timeoutMs: timeout.ms + MARGIN_MS, signal: r.signal, tenant: r.hr.metadata.namespace };
    const run = helmEngineOn()
      ? runHelmEngine(args, {
          ...common,
          kubeconfig: kubeconfigFor(r.endpoint),
          postRender: (manifests) => postRender(manifests, r.hr),
          waitFor: r.waitFor,
        })
      : runHelm(args, { ...common, home, kubeconfig: writeKubeconfig(home.dir, r.endpoint) });
    return await run.catch((err: unknown) => {
      // The cap is named where it bit: the action failed after running for as long as the cap allowed.
      if (timeout.capped && err instanceof Error && Date.now() - started >= timeout.ms)
        err.message += ` (${timeout.capped})`;
      throw err;
    });
  } finally {
    home.remove();
  }
}

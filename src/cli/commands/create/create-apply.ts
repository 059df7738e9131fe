// `create …` without --export: apply the object (server-side, as the "flux" field manager, so a
// re-run converges instead of failing on "already exists"), then wait until its controller says Ready
// with flux's lines: ✚ generating, ► applying, ✔ created|updated, ◎ waiting, ✔ ready / ✗ why not.
import type { KubeObject } from "../../../api/meta/object.js";
import type { Cluster } from "../../../kube/cluster.js";
import { FlotillaError } from "../../../util/errors.js";
import { step, success, waiting } from "../../output.js";
import { settledOf, type Handled } from "../operate/reconcile-wait.js";

export const FIELD_MANAGER = "flux";
const POLL_MS = 1000;
const WAITING_REASONS = new Set(["SourceNotReady", "DependencyNotReady"]);

export class NotReadyError extends FlotillaError {
  override name = "NotReadyError";
}

export const generating = (what: string) => process.stderr.write(`✚ generating ${what}\n`);

/** Applies `obj`; says "created" or "updated" as flux does. */
export async function upsert(cluster: Cluster, obj: KubeObject, human: string): Promise<KubeObject> {
  step(`applying ${human}`);
  const existed = await cluster.get(obj);
  const applied = await cluster.apply(obj, FIELD_MANAGER, { force: true });
  success(`${human} ${existed ? "updated" : "created"}`);
  return applied;
}

/** Polls until the object's controller has observed this generation and settled; fails on Ready=False. */
export async function waitReady(cluster: Cluster, obj: KubeObject, human: string, timeoutMs: number): Promise<Handled> {
  waiting(`waiting for ${human} reconciliation`);
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    const live = (await cluster.get(obj)) as Handled | undefined;
    if (live) {
      const s = settledOf(live);
      const ready = live.status?.conditions?.find((c) => c.type === "Ready");
      if (s.state === "current" && ready?.status === "True") return live;
      // Waiting for another object (a HelmRelease's chart being fetched, a dependency) is progress, not failure.
      // A source without its first artifact yet (ArtifactFailed "Source artifact not found", retried) too.
      const waitingOnOther =
        ready?.status === "False" &&
        (WAITING_REASONS.has(ready.reason ?? "") ||
          (ready.reason === "ArtifactFailed" && (ready.message ?? "").startsWith("Source artifact not found")));
      if (s.state === "current" && ready?.status === "False" && !waitingOnOther)
        throw new NotReadyError(`${human} ${obj.metadata.name} is not ready: ${ready.message ?? ready.reason ?? ""}`);
      if (s.state === "failed") throw new NotReadyError(`${human} ${obj.metadata.name} stalled: ${s.message}`);
      last = s.state === "in-progress" ? s.why : (ready?.message ?? last);
    }
    if (Date.now() > deadline)
      throw new NotReadyError(
        `timed out waiting for ${human} ${obj.metadata.name} to be ready${last ? ` (last seen: ${last})` : ""}: ` +
          "is the controller running? (flotilla check)",
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

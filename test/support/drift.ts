// What the drift-watch e2e files share: a hand edit or a deletion timed until the controller put it
// back, and what the controller process says about its reconciles (metrics, drift log lines).
import type { KubeObject } from "../../src/api/meta/object.js";
import type { Cluster } from "../../src/kube/cluster.js";
import type { ControllerProcess } from "./controller-process.js";
import { eventually } from "./fleet-context.js";

/** Seconds until `check` holds (polled every 100 ms, at most 30 s: a generous bound, not the aim). */
export async function secondsUntil(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  await eventually(what, async () => (await check()) || undefined, 30_000, 100);
  return (performance.now() - started) / 1000;
}

/** Sets `data[key]` of a ConfigMap as field manager `manager`; seconds until it is `want` again. */
export async function editAndTime(cluster: Cluster, path: string, key: string, manager: string): Promise<number> {
  const read = async () => (await cluster.client.get<{ data?: Record<string, string> }>(path)).data?.[key];
  const want = await read();
  await cluster.client.patch(path, "merge", { data: { [key]: `edited by ${manager}` } }, { fieldManager: manager });
  return secondsUntil(`${path} put back`, async () => (await read()) === want);
}

/**
 * Another writer fighting the owner for `data[key]` of a ConfigMap for `ms`: each time it is back to
 * what the owner applies (`applied`), it is set again as `manager`. How many times it set it.
 */
export async function fight(cluster: Cluster, path: string, key: string, applied: string, manager: string, ms: number) {
  const until = Date.now() + ms;
  let edits = 0;
  while (Date.now() < until) {
    const value = (await cluster.client.get<{ data?: Record<string, string> }>(path)).data?.[key];
    if (value === applied) {
      await cluster.client.patch(path, "merge", { data: { [key]: `set by ${manager}` } }, { fieldManager: manager });
      edits++;
    }
    await sleep(200);
  }
  return edits;
}

/** Deletes an object; seconds until it exists again (a new object: another uid). */
export async function deleteAndTime(cluster: Cluster, path: string): Promise<number> {
  const uid = async () => (await cluster.client.get<KubeObject>(path).catch(() => undefined))?.metadata.uid;
  const before = await uid();
  await cluster.client.delete(path);
  return secondsUntil(`${path} created again`, async () => {
    const now = await uid();
    return now !== undefined && now !== before;
  });
}

/** Reconciles so far per object name of `kind` in `ns` (gotk_reconcile_duration_seconds_count). */
export async function reconcileCounts(c: ControllerProcess, kind: string, ns: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${await c.healthUrl()}/metrics`)).text();
  const re = new RegExp(
    `gotk_reconcile_duration_seconds_count\\{kind="${kind}",name="([^"]+)",namespace="${ns}"\\} (\\d+)`,
    "g",
  );
  return Object.fromEntries([...text.matchAll(re)].map((m) => [m[1]!, Number(m[2])]));
}

/**
 * Until the controller said the drift watches of owner `ns/name` have listed (owner-drift.ts): an
 * edit before that may be taken for the baseline and never put back.
 */
export const watchesListed = (c: ControllerProcess, ns: string, name: string) =>
  eventually(
    `the drift watches of ${ns}/${name} to list`,
    async () => c.logs.some((l) => l.msg === "drift watch: listed" && l.owner === `${ns}/${name}`) || undefined,
  );

/** An object an owner applied, as the drift watch names it (`<namespace>_<name>_<group>_<kind>`). */
export interface Applied {
  cluster: Cluster;
  path: string;
  /** `namespace/name` of its owner. */
  owner: string;
  id: string;
}

/** The controller flags driftQuiet needs: the "drift: judged" lines are at debug. */
export const JUDGED_LOG = ["--log-level", "debug"];

const BARRIER = "flotilla.test/drift-barrier";
let barriers = 0;

/**
 * Until the drift watch has weighed every write to `objects` made so far and nothing of their owners
 * is on its way (no change waiting, queued or reconciling): a third party's annotation (it triggers
 * nothing) is written on each, and its "drift: judged" debug line awaited; a watch hands its events
 * in order, so all earlier writes were judged before it. Tried again while an owner is busy.
 * Needs the controller at --log-level debug.
 */
export async function driftQuiet(c: ControllerProcess, objects: Applied[]): Promise<void> {
  await eventually(
    "the drift watch to have judged every write with nothing on its way",
    async () => {
      const marks = await Promise.all(
        objects.map(async (o) => {
          const annotations = { [BARRIER]: String(++barriers) };
          const written = await o.cluster.client.patch<KubeObject>(
            o.path,
            "merge",
            { metadata: { annotations } },
            {
              fieldManager: "drift-barrier",
            },
          );
          return { ...o, resourceVersion: written.metadata.resourceVersion };
        }),
      );
      const lines = await Promise.all(
        marks.map((m) =>
          eventually(
            `the drift watch to judge ${m.id}@${m.resourceVersion}`,
            async () =>
              c.logs.find(
                (l) =>
                  l.msg === "drift: judged" &&
                  l.owner === m.owner &&
                  l.id === m.id &&
                  l.resourceVersion === m.resourceVersion,
              ),
            30_000,
            100,
          ),
        ),
      );
      return lines.every((l) => l.quiet === true && l.trigger === false) || undefined;
    },
    60_000,
  );
}

/**
 * Until the clock is past the second of the object's newest managedFields entry. The watch names an
 * edit's writer by the newest entry, and entries have one-second resolution: an edit in the same
 * second as another writer's (a barrier's, an annotator's) would tie with it.
 */
export async function pastLastWrite(cluster: Cluster, path: string): Promise<void> {
  const o = await cluster.client.get<KubeObject>(path);
  const times = (o.metadata.managedFields ?? []).map((e) => Date.parse(e.time ?? "") || 0);
  const next = Math.max(0, ...times) + 1000;
  await eventually("the second of the last write to pass", async () => Date.now() >= next || undefined, 5000, 50);
}

/** Each "drift: reconciling now" the controller logged: `<name>: <why>,<why>…`. */
export const driftTriggers = (c: ControllerProcess): string[] =>
  c.logs
    .filter((l) => l.msg === "drift: reconciling now")
    .map((l) => `${String(l.name)}: ${(l.changes as string[]).map((ch) => ch.replace(/^\S+ /, "")).join()}`);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

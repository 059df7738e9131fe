// `flotilla logs`: the controller's JSON log, filtered by level, kind, name and namespace and printed
// as flux logs prints it — `<ts> <level> <Kind>/<name>.<namespace> - <message> <error>`. In a cluster the
// log comes from the controller's pods (label app.kubernetes.io/part-of=flotilla in --flux-namespace);
// a controller run as a process beside the cluster (a local fleet, the demo) writes it to a file:
// --log-file reads that (-f follows it).
import { Command, Option } from "commander";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { apiPath } from "../../api/paths.js";
import { addClusterFlags, clusterOf, type ClusterFlags, DEFAULT_NAMESPACE } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { goDurationFlag, parseGoDuration } from "../export/go-duration.js";

interface LogsFlags extends ClusterFlags {
  level?: string;
  kind?: string;
  name?: string;
  follow?: boolean;
  tail: string;
  fluxNamespace: string;
  allNamespaces?: boolean;
  since?: string;
  sinceTime?: string;
  logFile?: string;
}

interface Entry {
  ts?: string;
  level?: string;
  msg?: string;
  error?: string;
  kind?: string;
  "reconciler kind"?: string;
  controllerKind?: string;
  name?: string;
  namespace?: string;
}

/** One log line as flux prints it, or undefined when the filters leave it out (or it is not JSON). */
export function formatLogLine(line: string, f: LogsFlags, sinceMs?: number): string | undefined {
  let e: Entry;
  try {
    e = JSON.parse(line) as Entry;
  } catch {
    return undefined;
  }
  const kind = e["reconciler kind"] ?? e.kind ?? "";
  const eq = (a: string | undefined, b: string | undefined) => (a ?? "").toLowerCase() === (b ?? "").toLowerCase();
  if (f.level && e.level !== f.level) return undefined;
  if (f.kind && !eq(f.kind, kind) && !eq(f.kind, e.controllerKind)) return undefined;
  if (f.name && !eq(f.name, e.name)) return undefined;
  if (!f.allNamespaces && !eq(f.namespace, e.namespace)) return undefined;
  if (sinceMs !== undefined && e.ts && new Date(e.ts).getTime() < sinceMs) return undefined;
  const who = `${kind || e.controllerKind || ""}${e.name ? `/${e.name}.${e.namespace ?? ""}` : ""}`;
  return `${e.ts ?? ""} ${e.level ?? ""} ${who} - ${e.msg ?? ""} ${e.error ?? ""}\n`;
}

function sinceOf(f: LogsFlags): number | undefined {
  if (f.since && f.sinceTime) throw new UsageError("at most one of `sinceTime` or `sinceDuration` may be specified");
  if (f.sinceTime) {
    const t = new Date(f.sinceTime).getTime();
    if (Number.isNaN(t)) throw new UsageError(`${f.sinceTime} is not a valid (RFC3339) time`);
    return t;
  }
  if (f.since) {
    goDurationFlag("--since", f.since);
    return Date.now() - Number(parseGoDuration(f.since)! / 1_000_000n);
  }
  return undefined;
}

async function fromFile(f: LogsFlags, tail: number, sinceMs: number | undefined): Promise<void> {
  const file = f.logFile!;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`--log-file: ${(err as Error).message}`);
  }
  let lines = text.split("\n").filter(Boolean);
  if (tail >= 0) lines = lines.slice(-tail);
  for (const l of lines) process.stdout.write(formatLogLine(l, f, sinceMs) ?? "");
  if (!f.follow) return;
  let offset = statSync(file).size;
  let pending = "";
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const size = statSync(file).size;
    if (size <= offset) continue;
    const fd = openSync(file, "r");
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    closeSync(fd);
    offset = size;
    const parts = (pending + buf.toString("utf8")).split("\n");
    pending = parts.pop() ?? "";
    for (const l of parts) process.stdout.write(formatLogLine(l, f, sinceMs) ?? "");
  }
}

const podLogPath = (namespace: string, name: string) =>
  apiPath({ group: "", version: "v1", resource: "pods", namespace, name, subresource: "log" });

async function fromPods(f: LogsFlags, tail: number, sinceMs: number | undefined): Promise<void> {
  if (f.follow) throw new UsageError("-f with pod logs is not implemented yet: use kubectl logs -f, or --log-file");
  const cluster = clusterOf(f);
  const pods = await cluster.client.get<{ items: { metadata: { name: string } }[] }>(
    apiPath({ group: "", version: "v1", resource: "pods", namespace: f.fluxNamespace }),
    { labelSelector: "app.kubernetes.io/part-of=flotilla" },
  );
  if (!pods.items.length)
    throw new UsageError(
      `no flotilla controller pods in the '${f.fluxNamespace}' namespace: pass --flux-namespace, or --log-file for a controller run as a process`,
    );
  for (const pod of pods.items) {
    const query: Record<string, string> = {};
    if (tail >= 0) query.tailLines = String(tail);
    if (sinceMs !== undefined) query.sinceSeconds = String(Math.max(1, Math.ceil((Date.now() - sinceMs) / 1000)));
    const text = await cluster.client.get<string>(podLogPath(f.fluxNamespace, pod.metadata.name), query);
    for (const l of String(text).split("\n")) process.stdout.write(formatLogLine(l, f, sinceMs) ?? "");
  }
}

export function logsCommand(): Command {
  const cmd = new Command("logs")
    .description("Display formatted logs for the flotilla controller")
    .addOption(new Option("--level <level>", "log level").choices(["debug", "info", "error"]))
    .option("--kind <kind>", "displays logs of a particular toolkit kind e.g. GitRepository")
    .option("--name <name>", "specifies the name of the object logs to be displayed")
    .option("-f, --follow", "specifies if the logs should be streamed")
    .option("--tail <n>", "lines of recent log file to display", "-1")
    .option("--flux-namespace <ns>", "the namespace where the controller is running", DEFAULT_NAMESPACE())
    .option("-A, --all-namespaces", "displays logs for objects across all namespaces")
    .option("--since <duration>", "only return logs newer than a relative duration like 5s, 2m, or 3h")
    .option("--since-time <time>", "only return logs after a specific date (RFC3339)")
    .option("--log-file <path>", "read the log a controller run as a process writes (the demo's controllers.log)")
    .addHelpText(
      "after",
      "\nExamples:\n  flotilla logs --level=error --all-namespaces\n  flotilla logs --kind=Kustomization --name=podinfo -n apps\n  flotilla logs --log-file /tmp/flotilla-demo/controllers.log -A -f",
    );
  addClusterFlags(cmd);
  return cmd.action(async (f: LogsFlags) => {
    const tail = Number(f.tail);
    if (!Number.isInteger(tail)) throw new UsageError(`--tail takes a whole number, got "${f.tail}"`);
    const sinceMs = sinceOf(f);
    await (f.logFile ? fromFile(f, tail, sinceMs) : fromPods(f, tail, sinceMs));
  });
}

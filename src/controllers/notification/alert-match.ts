// Which Alerts an event goes to, and what it carries there: notification-controller v1.9's rules
// (internal/server/event_server.go and event_handlers.go) as pure functions — the metadata cleanup, the
// source match (kind, namespace defaulting to the Alert's, name or `*`, matchLabels, severity), the
// inclusion and exclusion lists, and the metadata merge of RFC 0008 (eventMetadata, summary).
import type { Alert, EventSource } from "../../api/notification/alert.js";
import { EVENT_GROUP, groupOf, type FluxEvent } from "../../runtime/flux-event.js";

/** Keeps only metadata keyed with the event group or the object's group, less checksum and digest. */
export function cleanupMetadata(event: FluxEvent): FluxEvent {
  const objectPrefix = `${groupOf(event.involvedObject)}/`;
  const exclude = [`${objectPrefix}checksum`, `${objectPrefix}digest`].map((k) => k.toLowerCase());
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.metadata ?? {})) {
    if (exclude.includes(k.toLowerCase())) continue;
    if (k.startsWith(`${EVENT_GROUP}/`) || k.startsWith(objectPrefix)) metadata[k] = v;
  }
  // Flux removes the token key before matching too (excludeInternalMetadata).
  delete metadata[`${objectPrefix}token`];
  return { ...event, metadata };
}

/** The key identical events share (Flux's eventKeyFunc): one per object, message and revision. */
export function duplicateKey(event: FluxEvent): string {
  const o = event.involvedObject;
  const group = groupOf(o);
  const parts = ["event", `name=${o.name ?? ""}`, `namespace=${o.namespace ?? ""}`, `kind=${o.kind ?? ""}`];
  parts.push(`message=${event.message}`);
  for (const key of ["originRevision", "revision", "token"]) {
    const v = event.metadata?.[`${group}/${key}`];
    if (v !== undefined) parts.push(`${key}=${v}`);
  }
  return parts.join("/");
}

/** Does the event's object match one source (labels: the object's, fetched only when asked for)? */
export function matchesSource(
  event: FluxEvent,
  alert: Alert,
  source: EventSource,
  labels: Record<string, string> | undefined,
): boolean {
  const o = event.involvedObject;
  const namespace = source.namespace || alert.metadata.namespace;
  if (o.namespace !== namespace || o.kind !== source.kind) return false;
  const severity = alert.spec.eventSeverity ?? "info";
  if (event.severity !== severity && severity !== "info") return false;
  if (source.name !== "*" && source.name !== o.name) return false;
  if (!source.matchLabels) return true;
  if (!labels) return false;
  return Object.entries(source.matchLabels).every(([k, v]) => labels[k] === v);
}

export type RegexProblem = { list: "inclusion" | "exclusion"; expression: string };

/**
 * Go's RE2 and JavaScript's regular expressions agree on what Flux users write (anchors, classes,
 * alternation); an expression JavaScript cannot compile is reported, as Flux reports Go's failures.
 */
function compile(expression: string): RegExp | undefined {
  try {
    return new RegExp(expression, "u");
  } catch {
    return undefined;
  }
}

/** Inclusion then exclusion, as Flux applies them; problems are the expressions that did not compile. */
export function messageAllowed(alert: Alert, message: string, problems: RegexProblem[] = []): boolean {
  const inclusion = alert.spec.inclusionList ?? [];
  if (inclusion.length) {
    let included = false;
    for (const expression of inclusion) {
      const re = compile(expression);
      if (!re) problems.push({ list: "inclusion", expression });
      else if (re.test(message)) {
        included = true;
        break;
      }
    }
    if (!included) return false;
  }
  for (const expression of alert.spec.exclusionList ?? []) {
    const re = compile(expression);
    if (!re) problems.push({ list: "exclusion", expression });
    else if (re.test(message)) return false;
  }
  return true;
}

/** The sources that may need the object's labels (matchLabels set): only then is the object read. */
export const needsLabels = (alert: Alert) => alert.spec.eventSources.some((s) => s.matchLabels);

/**
 * The metadata the provider sees, lowest to highest precedence: event-group keys, the Alert's
 * eventMetadata, its summary (as "summary"), then the object-group keys (prefixes stripped).
 */
export function combineMetadata(event: FluxEvent, alert: Alert): FluxEvent {
  const metadata: Record<string, string> = {};
  const eventPrefix = `${EVENT_GROUP}/`;
  const objectPrefix = `${groupOf(event.involvedObject)}/`;
  for (const [k, v] of Object.entries(event.metadata ?? {}))
    if (k.startsWith(eventPrefix)) metadata[k.slice(eventPrefix.length)] = v;
  Object.assign(metadata, alert.spec.eventMetadata ?? {});
  if (alert.spec.summary) metadata.summary = alert.spec.summary;
  for (const [k, v] of Object.entries(event.metadata ?? {}))
    if (k.startsWith(objectPrefix)) metadata[k.slice(objectPrefix.length)] = v;
  return { ...event, metadata: Object.keys(metadata).length ? metadata : event.metadata };
}

/** Every expression of the Alert's lists that does not compile (the status reconcile's check). */
export const regexProblems = (alert: Alert): RegexProblem[] => [
  ...(alert.spec.inclusionList ?? [])
    .filter((e) => !compile(e))
    .map((expression) => ({ list: "inclusion" as const, expression })),
  ...(alert.spec.exclusionList ?? [])
    .filter((e) => !compile(e))
    .map((expression) => ({ list: "exclusion" as const, expression })),
];

// How the flux CLI reads object references on its command line (internal/flags, internal/utils):
// `Kind/name.namespace` with the kind matched case-insensitively against a list, `ns/name` for
// dependsOn, and pflag's string slices (repeatable and comma-separated).
import { UsageError } from "../../errors.js";

export interface Ref {
  kind: string;
  name: string;
  namespace?: string;
}

/** utils.ParseObjectKindNameNamespace: the last `.` part of the name is the namespace. */
export function parseKindNameNamespace(input: string): { kind: string; name: string; namespace: string } {
  const parts = input.split("/");
  const [kind, rest] = parts.length === 2 ? [parts[0]!, parts[1]!] : ["", input];
  const dotted = rest.split(".");
  if (dotted.length > 1) return { kind, name: dotted.slice(0, -1).join("."), namespace: dotted.at(-1)! };
  return { kind, name: rest, namespace: "" };
}

const matchKind = (kinds: string[], kind: string) => kinds.find((k) => k.toLowerCase() === kind.toLowerCase());

/** A `--source` flag value, refused in pflag's words when its kind is not one of `kinds`. */
export function sourceFlag(flag: string, value: string, kinds: string[], defaultKind?: string): Ref {
  const invalid = (why: string) => new UsageError(`invalid argument "${value}" for "${flag}" flag: ${why}`);
  if (!value.trim()) throw invalid(`no source given, please specify <kind>/<name>[.<namespace>]`);
  const { kind, name, namespace } = parseKindNameNamespace(value);
  if (!name) throw invalid(`no name given for source of kind '${kind}'`);
  let chosen = kind;
  if (!chosen) {
    if (!defaultKind) throw invalid(`invalid helm chart source '${value}', must be in format <kind>/<name>`);
    if (matchKind(kinds, name)) throw invalid(`no kind specified for source '${name}'`);
    chosen = defaultKind;
  }
  const clean = matchKind(kinds, chosen);
  if (!clean) throw invalid(`source kind '${chosen}' is not supported, must be one of: ${kinds.join(", ")}`);
  return { kind: clean, name, ...(namespace ? { namespace } : {}) };
}

/** meta.MakeDependsOn: `name` or `namespace/name`. */
export function dependsOn(values: string[]): { name: string; namespace?: string }[] {
  return values.map((v) => {
    const [a, b] = v.split("/");
    return b !== undefined ? { name: b, namespace: a } : { name: a! };
  });
}

/** pflag StringSlice: every use adds, and each use may hold comma-separated values. */
export const collectSlice = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];

const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** `--label k=v` (repeatable): flux's parseLabels, with its error for a malformed one. */
export function parseLabels(values: string[]): Record<string, string> | undefined {
  if (!values.length) return undefined;
  const labels: Record<string, string> = {};
  for (const l of values) {
    const parts = l.split("=");
    if (parts.length !== 2) throw new UsageError(`invalid label format '${l}', must be key=value`);
    const [key, value] = parts as [string, string];
    if (!QUALIFIED_NAME.test(key)) throw new UsageError(`invalid label '${key}': not a qualified name ([prefix/]name)`);
    if (value && !(LABEL_VALUE.test(value) && value.length <= 63))
      throw new UsageError(`invalid label value '${value}': at most 63 alphanumerics, '-', '_' or '.'`);
    labels[key] = value;
  }
  return labels;
}

/** flags.SafeRelativePath: "./" + the path cleaned inside "./" (so "../x" cannot escape). */
export function safeRelativePath(value: string): string {
  const parts: string[] = [];
  for (const p of value.trim().split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return `./${parts.join("/")}`;
}

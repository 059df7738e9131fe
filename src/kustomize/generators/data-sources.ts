// Where generated ConfigMap and Secret data comes from: literals (KEY=VALUE), files ([key=]path)
// and env files (KEY=VALUE lines), parsed as kustomize parses them.
import { basename } from "node:path";
import { KustomizeError } from "../errors.js";
import type { GeneratorArgs } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { resolvePlain } from "../yaml/plain-scalars.js";

export interface DataEntry {
  key: string;
  value: string;
  /** Not valid UTF-8: goes to binaryData (ConfigMap) base64-encoded. */
  binary?: Buffer;
}

/** Surrounding matching quotes are removed from literal values, as kustomize does. */
function removeQuotes(s: string): string {
  if (s.length < 2 || s[0] !== s[s.length - 1]) return s;
  return s[0] === '"' || s[0] === "'" ? s.slice(1, -1) : s;
}

function literal(source: string, where: string, secret: boolean): DataEntry {
  const eq = source.indexOf("=");
  // kustomize prints the literal; a secretGenerator's (`token:s3cret`, a mistyped `=`) is a secret value.
  const shown = secret ? "(not shown: a secretGenerator literal)" : source;
  if (eq <= 0) throw new KustomizeError(`${where}: invalid literal source ${shown}, expected key=value`);
  return { key: source.slice(0, eq), value: removeQuotes(source.slice(eq + 1)) };
}

function envFile(text: string): DataEntry[] {
  const out: DataEntry[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = (i === 0 ? raw.replace(/^\uFEFF/, "") : raw).replace(/\r$/, "").replace(/^\s+/, "");
    if (line === "" || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    if (eq < 0) {
      out.push({ key: line, value: "" });
      return;
    }
    // kustomize keeps keys and values verbatim (trailing spaces, quotes) in env files.
    out.push({ key: line.slice(0, eq), value: line.slice(eq + 1) });
  });
  return out;
}

export function collectData(args: GeneratorArgs, loader: Loader, where: string, secret = false): DataEntry[] {
  const entries: DataEntry[] = [];
  for (const env of [...(args.envs ?? []), ...(args.env ? [args.env] : [])]) {
    const path = loader.resolve(env, "envs", where);
    entries.push(...envFile(loader.read(path)));
  }
  for (const l of args.literals ?? []) entries.push(literal(l, where, secret));
  for (const f of args.files ?? []) {
    const eq = f.indexOf("=");
    const [key, rel] = eq > 0 ? [f.slice(0, eq), f.slice(eq + 1)] : [basename(f), f];
    const path = loader.resolve(rel, "files", where);
    const bytes = Buffer.from(loader.readBytes(path));
    const text = bytes.toString("utf8");
    entries.push(Buffer.from(text, "utf8").equals(bytes) ? { key, value: text } : { key, value: "", binary: bytes });
  }
  const seen = new Set<string>();
  for (const e of entries) {
    if (typeof resolvePlain(e.key) !== "string") {
      throw new KustomizeError(
        `${where}: generator ${args.name}: key "${e.key}" would be read as ${JSON.stringify(resolvePlain(e.key))}, not a string; choose another key`,
      );
    }
    if (seen.has(e.key))
      throw new KustomizeError(`${where}: generator ${args.name}: key "${e.key}" appears more than once`);
    seen.add(e.key);
  }
  return entries;
}

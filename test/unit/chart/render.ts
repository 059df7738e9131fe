// Both sides of the chart's promise as objects keyed by apiVersion/kind/namespace/name: what the real
// helm renders from charts/flotilla, and what `flotilla install --export` prints (its real command,
// in this process, its stdout captured).
import { resolve } from "node:path";
import type { KubeObject } from "../../../src/api/meta/object.js";
import { runHelm } from "../../../src/binaries/helm/run.js";
import { installCommand } from "../../../src/cli/commands/install.js";
import { parseYamlDocuments } from "../../../src/kustomize/yaml/parse.js";

export const CHART = resolve("charts/flotilla");

export type Keyed = Record<string, KubeObject>;

function keyed(yaml: string, source: string): Keyed {
  const objects = parseYamlDocuments(yaml, source)
    .map((d) => d.value as unknown as KubeObject | null)
    .filter((o): o is KubeObject => !!o);
  const out: Keyed = {};
  for (const o of objects) {
    const key = `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
    if (out[key]) throw new Error(`${source}: ${key} twice`);
    out[key] = o;
  }
  return out;
}

/** `helm template flotilla charts/flotilla --include-crds -n <namespace> <args>`. */
export async function helmTemplate(args: string[] = [], namespace = "flux-system"): Promise<Keyed> {
  const r = await runHelm(["template", "flotilla", CHART, "--include-crds", "--namespace", namespace, ...args]);
  return keyed(r.stdout, "helm template");
}

/** `flotilla install --export <flags>`. */
export async function installExport(flags: string[] = []): Promise<Keyed> {
  let out = "";
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    await installCommand()
      .exitOverride()
      .parseAsync(["--export", ...flags], { from: "user" });
  } finally {
    process.stdout.write = write;
  }
  return keyed(out, "flotilla install --export");
}

export const NAMESPACE_KEY = (ns: string) => `v1/Namespace//${ns}`;

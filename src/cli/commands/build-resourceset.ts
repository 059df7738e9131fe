// `flotilla build resourceset -f FILE [--inputs-from FILE] [--inputs-from-provider FILE]`: a ResourceSet's
// objects rendered locally, as the operator's `flux-operator build resourceset` prints them (its flags,
// messages and output: `---` then each object as sigs.k8s.io/yaml, owner labels and commonMetadata set).
// Inputs: spec.inputs, or --inputs-from (a YAML list replacing them), plus Static providers from
// --inputs-from-provider (id = adler32 of the provider's name, as the operator's CLI computes it offline).
import { existsSync, readFileSync } from "node:fs";
import { Command } from "commander";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import {
  type BuiltStep,
  buildResourceSetSteps,
  flattenSteps,
  setCommonMetadata,
} from "../../controllers/resourceset/build.js";
import { combineInputs, type InputSource, inputId, orderProviders } from "../../controllers/resourceset/inputs.js";
import { sigsYaml } from "../export/sigs-yaml.js";
import { UsageError } from "../errors.js";

export interface BuildResourceSetOptions {
  /** The manifest's text (`-f`, or stdin for `-f -`). */
  manifest: string;
  inputsFrom?: string;
  inputsFromProvider?: string;
  namespace: string;
}

const API_VERSION = "fluxcd.controlplane.io/v1";
type Provider = KubeObject & { spec?: { type?: string; defaultValues?: Record<string, unknown> } };

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};

/** metav1.LabelSelectorAsSelector(...).Matches(labels). */
function matchesSelector(labels: Record<string, string>, sel: Selector): boolean {
  if (!Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v)) return false;
  return (sel.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    if (e.operator === "In") return has && (e.values ?? []).includes(labels[e.key]!);
    if (e.operator === "NotIn") return !has || !(e.values ?? []).includes(labels[e.key]!);
    if (e.operator === "Exists") return has;
    if (e.operator === "DoesNotExist") return !has;
    throw new UsageError(`error filtering providers: failed to parse selector: unknown operator '${e.operator}'`);
  });
}

function providersFrom(rset: ResourceSet, text: string): InputSource[] {
  const ns = rset.metadata.namespace!;
  const all: Provider[] = [];
  for (const doc of parseAllDocuments(text)) {
    const p = doc.toJS() as Provider | null;
    if (!p) continue;
    p.metadata = { ...p.metadata, namespace: p.metadata?.namespace || ns } as Provider["metadata"];
    if (p.metadata.namespace !== ns) continue;
    if (!p.metadata.name) throw new UsageError("ResourceSetInputProvider name must be set in the manifest");
    if (p.spec?.type !== "Static")
      throw new UsageError(
        `error loading providers from file: unsupported provider type '${p.spec?.type ?? ""}', only 'Static' is supported`,
      );
    all.push(p);
  }
  const picked = new Map<string, Provider>();
  for (const ref of rset.spec.inputsFrom ?? []) {
    if (ref.name) {
      const p = all.find((x) => x.metadata.name === ref.name);
      if (p && !picked.has(p.metadata.name)) picked.set(p.metadata.name, p);
    } else if (ref.selector) {
      for (const p of all)
        if (matchesSelector(p.metadata.labels ?? {}, ref.selector as Selector)) picked.set(p.metadata.name, p);
    } else
      throw new UsageError("error filtering providers: input provider reference must have either name or selector set");
  }
  return [...picked.values()].map((p) => ({
    apiVersion: API_VERSION,
    kind: "ResourceSetInputProvider",
    name: p.metadata.name,
    namespace: ns,
    inputs: [{ ...(p.spec?.defaultValues ?? {}), id: inputId(p.metadata.name) }],
  }));
}

/** The printed objects; a UsageError naming the ResourceSet for bad input. */
export function renderResourceSet(o: BuildResourceSetOptions): string {
  let rset: ResourceSet;
  try {
    rset = parseYaml(o.manifest) as ResourceSet;
  } catch (err) {
    throw new UsageError(`error parsing ResourceSet: ${(err as Error).message}`);
  }
  if (!rset || typeof rset !== "object") throw new UsageError("error parsing ResourceSet: the file holds no object");
  rset.apiVersion = API_VERSION;
  rset.kind = "ResourceSet";
  rset.metadata = { ...rset.metadata, namespace: rset.metadata?.namespace || o.namespace } as ResourceSet["metadata"];
  rset.spec = rset.spec ?? {};
  if (!rset.metadata.namespace)
    throw new UsageError("ResourceSet namespace must be set either in the manifest or with --namespace");
  if (!rset.metadata.name) throw new UsageError("ResourceSet name must be set in the manifest");
  const where = `ResourceSet/${rset.metadata.namespace}/${rset.metadata.name}`;
  // Its input groups come from the fleet's Clusters (decision 0048): a local build has none to read.
  const fleetAnnotation = Object.keys(rset.metadata.annotations ?? {}).find((k) => k.startsWith("fleet.flotilla.dev/"));
  if (fleetAnnotation)
    throw new UsageError(
      `${where}: the annotation ${fleetAnnotation} makes its inputs per fleet Cluster, read from the management cluster (decision 0048): a local build cannot expand them; use flotilla plan, or remove the annotation and give the cluster fields with --inputs-from`,
    );
  if (rset.spec.inputsFrom?.length && !o.inputsFrom && !o.inputsFromProvider)
    throw new UsageError(
      "ResourceSet has '.spec.inputsFrom', please provide the inputs with --inputs-from or --inputs-from-provider",
    );
  if (o.inputsFrom) rset.spec.inputs = parseYaml(readFileSync(o.inputsFrom, "utf8")) as ResourceSet["spec"]["inputs"];
  const providers = o.inputsFromProvider ? providersFrom(rset, readFileSync(o.inputsFromProvider, "utf8")) : [];
  const own = {
    apiVersion: API_VERSION,
    kind: "ResourceSet",
    name: rset.metadata.name,
    namespace: rset.metadata.namespace!,
    inputs: rset.spec.inputs ?? [],
  };
  let steps: BuiltStep[];
  try {
    const inputs = combineInputs(
      rset.spec.inputStrategy?.name ?? "Flatten",
      orderProviders(own, providers),
      rset.spec.inputStrategy?.includeEmptyProviders,
    );
    steps = buildResourceSetSteps(rset.spec, inputs);
  } catch (err) {
    throw new UsageError(`${where}: ${(err as Error).message}`);
  }
  const objects = flattenSteps(steps);
  if (objects.length === 0) throw new UsageError("no objects were generated");
  setCommonMetadata(objects, rset.spec.commonMetadata);
  setCommonMetadata(objects, {
    labels: {
      "resourceset.fluxcd.controlplane.io/name": rset.metadata.name,
      "resourceset.fluxcd.controlplane.io/namespace": rset.metadata.namespace!,
    },
  });
  // As the operator's CLI: each named step's objects under a `# step: <name>` line.
  return steps
    .map(
      (step) =>
        (step.name !== undefined && step.objects.length ? `# step: ${step.name}\n` : "") +
        step.objects.map((x) => `---\n${sigsYaml(x)}`).join(""),
    )
    .join("");
}

export const buildResourceSetCommand = () =>
  new Command("resourceset")
    .aliases(["rset"])
    .description("Build ResourceSet templates to Kubernetes objects")
    .option("-f, --filename <file>", "Path to the ResourceSet YAML manifest.")
    .option("-i, --inputs-from <file>", "Path to the ResourceSet inputs YAML manifest.")
    .option(
      "--inputs-from-provider <file>",
      "Path to a file containing YAML manifests of ResourceSetInputProvider objects of type Static.",
    )
    .option("-n, --namespace <name>", "the namespace of a ResourceSet whose manifest names none", "flux-system")
    .addHelpText(
      "after",
      `\nExamples:\n  flotilla build resourceset -f my-resourceset.yaml\n  flotilla build resourceset -f my-resourceset.yaml --inputs-from-provider my-providers.yaml\n  cat my-resourceset.yaml | flotilla build rset -f -`,
    )
    .action((f: { filename?: string; inputsFrom?: string; inputsFromProvider?: string; namespace: string }) => {
      if (!f.filename) throw new UsageError("--filename is required");
      if (f.filename !== "-" && !existsSync(f.filename))
        throw new UsageError(`invalid filename '${f.filename}', must point to an existing file`);
      const manifest = readFileSync(f.filename === "-" ? 0 : f.filename, "utf8");
      process.stdout.write(renderResourceSet({ ...f, manifest }));
    });

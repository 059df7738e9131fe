// The `helmCharts` and `helmGlobals` fields as kustomize v5.8.2 reads them (strictly: an unknown or
// mistyped key is an error, as kustomize's JSON decoding makes it), and the `helm template`
// arguments kustomize derives from one chart entry.
import { KustomizeError } from "../errors.js";
import type { Json } from "../yaml/emit.js";

/** One `helmCharts` entry: a chart to inflate (the Flux HelmChart object is api/source/helm.ts). */
export interface HelmChartInflation {
  name?: string;
  version?: string;
  repo?: string;
  releaseName?: string;
  namespace?: string;
  additionalValuesFiles?: string[];
  valuesFile?: string;
  valuesInline?: { [key: string]: Json };
  valuesMerge?: string;
  includeCRDs?: boolean;
  skipHooks?: boolean;
  apiVersions?: string[];
  kubeVersion?: string;
  nameTemplate?: string;
  skipTests?: boolean;
  debug?: boolean;
  devel?: boolean;
}

export interface HelmGlobals {
  chartHome?: string;
  configHome?: string;
}

type FieldType = "string" | "boolean" | "strings" | "map";
const CHART_FIELDS: Record<keyof HelmChartInflation, FieldType> = {
  name: "string",
  version: "string",
  repo: "string",
  releaseName: "string",
  namespace: "string",
  additionalValuesFiles: "strings",
  valuesFile: "string",
  valuesInline: "map",
  valuesMerge: "string",
  includeCRDs: "boolean",
  skipHooks: "boolean",
  apiVersions: "strings",
  kubeVersion: "string",
  nameTemplate: "string",
  skipTests: "boolean",
  debug: "boolean",
  devel: "boolean",
};
const GLOBAL_FIELDS: Record<keyof HelmGlobals, FieldType> = { chartHome: "string", configHome: "string" };

function hasType(v: Json, t: FieldType): boolean {
  if (v === null) return true; // JSON null leaves a Go field at its zero value
  if (t === "strings") return Array.isArray(v) && v.every((s) => typeof s === "string");
  if (t === "map") return typeof v === "object" && !Array.isArray(v);
  return typeof v === t;
}

function checkFields(value: Json, fields: Record<string, FieldType>, where: string): void {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new KustomizeError(`${where} must be a mapping`);
  for (const [key, v] of Object.entries(value)) {
    const t = fields[key];
    if (!t) throw new KustomizeError(`${where}: unknown field "${key}"`);
    if (!hasType(v, t)) throw new KustomizeError(`${where}.${key}: expected ${t}, got ${JSON.stringify(v)}`);
  }
}

/** Checks one `helmCharts` entry as kustomize does before running anything. */
export function checkChart(chart: Json, where: string): HelmChartInflation {
  checkFields(chart, CHART_FIELDS, where);
  const c = chart as HelmChartInflation;
  if (!c.name) throw new KustomizeError(`${where}: chart name cannot be empty`);
  // Both go to helm as bare arguments: a leading "-" would be read as a flag.
  if (c.releaseName?.startsWith("-"))
    throw new KustomizeError(`${where}: releaseName must not start with '-', got "${c.releaseName}"`);
  if (c.name.startsWith("-")) throw new KustomizeError(`${where}: chart name must not start with '-', got "${c.name}"`);
  const merge = c.valuesMerge || "override";
  if (!["merge", "override", "replace"].includes(merge))
    throw new KustomizeError(`${where}: valuesMerge must be one of [merge override replace], got "${merge}"`);
  return c;
}

export function checkGlobals(globals: Json | undefined, where: string): HelmGlobals {
  if (globals === undefined || globals === null) return {};
  checkFields(globals, GLOBAL_FIELDS, where);
  return globals as HelmGlobals;
}

/** `helm template` arguments, in kustomize's order. */
export function templateArgs(
  c: HelmChartInflation,
  chartDir: string,
  valuesFile: string,
  extraValues: string[],
): string[] {
  const args = ["template", c.releaseName || "--generate-name", chartDir];
  if (c.namespace) args.push("--namespace", c.namespace);
  if (c.nameTemplate) args.push("--name-template", c.nameTemplate);
  args.push("-f", valuesFile);
  for (const f of extraValues) args.push("-f", f);
  for (const v of c.apiVersions ?? []) args.push("--api-versions", v);
  if (c.kubeVersion) args.push("--kube-version", c.kubeVersion);
  if (c.includeCRDs) args.push("--include-crds");
  if (c.skipTests) args.push("--skip-tests");
  if (c.skipHooks) args.push("--no-hooks");
  if (c.debug) args.push("--debug");
  if (c.devel) args.push("--devel");
  return args;
}

/** `helm pull` arguments for a chart that is not vendored yet. */
export function pullArgs(c: HelmChartInflation, untarDir: string): string[] {
  const args = ["pull", "--untar", "--untardir", untarDir];
  if (c.repo?.startsWith("oci://")) args.push(`${c.repo.replace(/\/$/, "")}/${c.name}`);
  else if (c.repo) args.push("--repo", c.repo, c.name!);
  else args.push(c.name!);
  if (c.version) args.push("--version", c.version);
  if (c.devel) args.push("--devel");
  return args;
}

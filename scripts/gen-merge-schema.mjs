#!/usr/bin/env node
// Regenerates src/kustomize/schema/merge-schema.json — what strategic merge needs to know about
// Kubernetes types — from the OpenAPI document *kustomize itself embeds* (kyaml's built-in schema,
// Kubernetes v1.21.2 for kustomize v5.8.2), so lists merge exactly where kustomize merges them and
// are replaced where kustomize replaces them (fields added to Kubernetes since have no schema there).
//   kinds: "apiVersion kind" → definition
//   defs:  definition → { field: [definition of the value or of list items] or
//                                [definition, patch strategy, merge keys] for merged lists }
// Merge keys are x-kubernetes-list-map-keys when present (container ports: containerPort+protocol),
// else x-kubernetes-patch-merge-key, as kyaml picks them. Only definitions that lead to a merged
// list are kept. Reads the bundle from the Go module cache that tools/build.sh filled.
// usage: node scripts/gen-merge-schema.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { kustomizeModule } from "./kustomize-modules.mjs";

const { kustomizeVersion, version: kyamlVersion, dir: kyamlDir } = kustomizeModule("kyaml");
const dataDir = join(kyamlDir, "openapi/kubernetesapi/data");
const bundleName = execFileSync("ls", [dataDir], { encoding: "utf8" })
  .split("\n")
  .find((f) => f.endsWith(".json.gz"));
if (!bundleName) throw new Error(`no OpenAPI bundle in ${dataDir}`);
const bundle = JSON.parse(gunzipSync(readFileSync(join(dataDir, bundleName))).toString("utf8"));

const ref = (schema) => (schema?.$ref ? schema.$ref.replace("#/definitions/", "") : "");
const fields = {};
for (const [name, def] of Object.entries(bundle.definitions)) {
  const out = {};
  for (const [field, p] of Object.entries(def.properties ?? {})) {
    const target = p.type === "array" ? ref(p.items) : ref(p);
    const strategy = p["x-kubernetes-patch-strategy"] ?? "";
    const merged = strategy.split(",").includes("merge");
    const keys =
      p["x-kubernetes-list-map-keys"] ?? (p["x-kubernetes-patch-merge-key"] ? [p["x-kubernetes-patch-merge-key"]] : []);
    out[field] = { target, merged, strategy, keys };
  }
  if (ref(def.additionalProperties)) out["*"] = { target: ref(def.additionalProperties), merged: false };
  fields[name] = out;
}

// Keep the definitions from which a merged list can be reached.
const relevant = new Set();
for (let changed = true; changed;) {
  changed = false;
  for (const [name, fs] of Object.entries(fields)) {
    if (relevant.has(name)) continue;
    if (Object.values(fs).some((f) => f.merged || relevant.has(f.target))) {
      relevant.add(name);
      changed = true;
    }
  }
}
const defs = {};
for (const name of [...relevant].sort()) {
  defs[name] = {};
  for (const [field, f] of Object.entries(fields[name]).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (f.merged) defs[name][field] = [f.target, f.strategy, f.keys];
    else if (relevant.has(f.target)) defs[name][field] = [f.target];
  }
}
const kinds = {};
for (const r of bundle.resources) kinds[`${r.apiVersion} ${r.kind}`] = r.definition;

const source = `kustomize ${kustomizeVersion} built-in OpenAPI (kyaml ${kyamlVersion}, ${bundle.coverage.floor})`;
const out = "src/kustomize/schema/merge-schema.json";
writeFileSync(out, `${JSON.stringify({ source, kinds, defs })}\n`);
execFileSync("npx", ["prettier", "--log-level", "warn", "--write", out], { stdio: "inherit" });
console.log(`wrote ${Object.keys(kinds).length} kinds and ${relevant.size} definitions from ${source}`);

#!/usr/bin/env node
// Regenerates src/kustomize/schema/builtin-fieldspecs.json — kustomize's default transformer
// configuration (which fields name a ConfigMap, carry labels, hold $(VARS)...) — from the Go source
// of the kustomize api module that the pinned kustomize uses (internal/konfig/builtinpluginconsts),
// so `configurations:` files extend exactly the table kustomize extends.
// usage: node scripts/gen-fieldspecs.mjs
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

const versions = readFileSync("tools/versions.env", "utf8");
const kustomizeVersion = /^KUSTOMIZE_VERSION=(\S+)/m.exec(versions)?.[1];
if (!kustomizeVersion) throw new Error("tools/versions.env does not pin KUSTOMIZE_VERSION");
const modCache = process.env.GOMODCACHE || execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
const kustomizeMod = readFileSync(
  join(modCache, "sigs.k8s.io/kustomize/kustomize", `v5@${kustomizeVersion}`, "go.mod"),
  "utf8",
);
const apiVersion = /sigs\.k8s\.io\/kustomize\/api (\S+)/.exec(kustomizeMod)?.[1];
if (!apiVersion) throw new Error(`kustomize ${kustomizeVersion}'s go.mod does not require the api module`);
const dir = join(modCache, "sigs.k8s.io/kustomize", `api@${apiVersion}`, "internal/konfig/builtinpluginconsts");

// The Go constants are raw strings and sums of them: `name = \`yaml\` + otherName + \`yaml\``.
const terms = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith(".go"))) {
  const text = readFileSync(join(dir, file), "utf8");
  for (const m of text.matchAll(/(\w+)\s*=\s*((?:`[^`]*`|\w+)(?:\s*\+\s*(?:`[^`]*`|\w+))*)/g))
    terms[m[1]] = [...m[2].matchAll(/`([^`]*)`|(\w+)/g)].map((t) =>
      t[1] !== undefined ? { text: t[1] } : { ref: t[2] },
    );
}
const value = (name) => {
  if (!terms[name]) throw new Error(`constant ${name} not found in ${dir}`);
  return terms[name].map((t) => (t.ref ? value(t.ref) : t.text)).join("");
};
const consts = Object.fromEntries(Object.keys(terms).map((name) => [name, value(name)]));
// GetDefaultFieldSpecs' order, as defaultconfig.go joins them.
const order = /configData := \[\]\[\]byte\{([^}]*)\}/s.exec(readFileSync(join(dir, "defaultconfig.go"), "utf8"))[1];
const out = { source: `sigs.k8s.io/kustomize/api@${apiVersion}/internal/konfig/builtinpluginconsts` };
for (const [, name] of order.matchAll(/\[\]byte\((\w+)\)/g)) {
  if (consts[name] === undefined) throw new Error(`constant ${name} not found in ${dir}`);
  Object.assign(out, parse(consts[name]));
}
writeFileSync("src/kustomize/schema/builtin-fieldspecs.json", `${JSON.stringify(out, null, 1)}\n`);
console.log(
  `builtin-fieldspecs.json: ${Object.keys(out)
    .filter((k) => k !== "source")
    .join(", ")}`,
);

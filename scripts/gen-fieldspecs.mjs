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
import { kustomizeModule } from "./kustomize-modules.mjs";

const api = kustomizeModule("api");
const apiVersion = api.version;
const dir = join(api.dir, "internal/konfig/builtinpluginconsts");

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
const file = "src/kustomize/schema/builtin-fieldspecs.json";
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
// Formatted as the repository keeps it, so a regeneration shows only real changes.
execFileSync("npx", ["prettier", "--log-level", "warn", "--write", file], { stdio: "inherit" });
console.log(
  `builtin-fieldspecs.json: ${Object.keys(out)
    .filter((k) => k !== "source")
    .join(", ")}`,
);

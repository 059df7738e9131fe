// Lint: ESLint's and typescript-eslint's recommended rules (pure JavaScript: no native binaries to fetch).
import js from "@eslint/js";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import tseslint from "typescript-eslint";

// The layers of src/, bottom → top: each folder may import only the folders listed (and itself); "*" is
// the top, which may import everything. The table in docs/architecture.md says the same, and
// test/unit/architecture/layers.test.ts checks that ESLint enforces exactly that table.
const layers = {
  util: [],
  api: [],
  binaries: ["util"],
  kube: ["util", "api"],
  ssa: ["kube", "util", "api"],
  kustomize: ["binaries", "util", "api"],
  sources: ["kube", "kustomize", "binaries", "util", "api"],
  runtime: ["kube", "util", "api"],
  local: ["kube", "binaries", "util", "api"],
  install: ["api", "util", "kube"],
  controllers: ["runtime", "sources", "kustomize", "ssa", "kube", "binaries", "util", "api"],
  fleet: ["controllers", "runtime", "sources", "kustomize", "ssa", "kube", "binaries", "util", "api"],
  demo: [
    "fleet",
    "controllers",
    "local",
    "install",
    "runtime",
    "sources",
    "kustomize",
    "ssa",
    "kube",
    "binaries",
    "util",
    "api",
  ],
  dashboard: ["fleet", "controllers", "runtime", "ssa", "kube", "util", "api"],
  cli: "*",
};

// One no-restricted-imports block per folder and file depth: imports are relative, so
// `../kustomize/x.js` means the kustomize layer from src/api/a.ts but api's own subfolder from
// src/api/source/a.ts. The regex therefore climbs exactly to src/ before naming the layer.
const deepestSourceFolder = Math.max(
  ...readdirSync(join(import.meta.dirname, "src"), { recursive: true }).map((p) => String(p).split("/").length),
);
function layerBoundaries() {
  const blocks = [];
  for (const [layer, allowed] of Object.entries(layers)) {
    if (allowed === "*") continue;
    const forbidden = Object.keys(layers).filter((other) => other !== layer && !allowed.includes(other));
    for (let depth = 1; depth <= deepestSourceFolder; depth++) {
      const patterns = forbidden.map((other) => ({
        regex: `^(\\.\\./){${depth}}${other}(/|$)`,
        message: `${layer} may not import ${other}: see docs/architecture.md (layers)`,
      }));
      blocks.push({
        files: [`src/${layer}/${"*/".repeat(depth - 1)}*.ts`],
        rules: { "no-restricted-imports": ["error", { patterns }] },
      });
    }
  }
  return blocks;
}

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  ...layerBoundaries(),
  {
    // The dashboard's page runs in the browser (no build step): the browser's globals, not Node's.
    files: ["src/dashboard/assets/*.js"],
    languageOptions: {
      sourceType: "module",
      globals: {
        document: "readonly",
        window: "readonly",
        location: "readonly",
        URLSearchParams: "readonly",
        EventSource: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
);

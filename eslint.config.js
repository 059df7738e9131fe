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

// Below the layers, the sub-folders of two of them (the second table in docs/architecture.md): each may
// import only the sibling folders listed (its own sub-folders and the layer's top-level files always).
// A controller folder imports the kit and the shared drift watch, never another kind's folder; the
// fleet's folders import each other one way only. test/unit/architecture/subfolders.test.ts checks it.
const subfolders = {
  controllers: {
    kit: [],
    "drift-watch": ["kit"],
    gitrepository: ["kit", "drift-watch"],
    helmrepository: ["kit", "drift-watch"],
    ocirepository: ["kit", "drift-watch"],
    helmchart: ["kit", "drift-watch"],
    kustomization: ["kit", "drift-watch"],
    helmrelease: ["kit", "drift-watch"],
    receiver: ["kit", "drift-watch"],
    resourceset: ["kit", "drift-watch"],
    fluxinstance: ["kit"],
    notification: ["kit", "drift-watch"],
  },
  fleet: {
    children: [],
    status: ["children"],
    rollout: ["children"],
    fanout: ["children", "rollout"],
    fleetkustomization: ["fanout", "rollout", "children"],
    fleethelmrelease: ["fanout", "rollout", "children"],
    plan: ["fleetkustomization", "fleethelmrelease", "fanout", "rollout", "status", "children"],
    cluster: [],
    kamaji: [],
    repository: [],
  },
};

// One no-restricted-imports block per folder and file depth: imports are relative, so
// `../kustomize/x.js` means the kustomize layer from src/api/a.ts but api's own subfolder from
// src/api/source/a.ts. The regex therefore climbs exactly to src/ before naming the layer.
const deepestSourceFolder = Math.max(
  ...readdirSync(join(import.meta.dirname, "src"), { recursive: true }).map((p) => String(p).split("/").length),
);
function layerPatterns(layer, depth) {
  const allowed = layers[layer];
  const forbidden = Object.keys(layers).filter((other) => other !== layer && !allowed.includes(other));
  return forbidden.map((other) => ({
    regex: `^(\\.\\./){${depth}}${other}(/|$)`,
    message: `${layer} may not import ${other}: see docs/architecture.md (layers)`,
  }));
}
// A later block's options replace an earlier one's for the same rule, so a sub-folder's block repeats
// its layer's patterns at that depth.
function subfolderBlocks(layer, depth) {
  if (depth < 2) return [];
  return Object.entries(subfolders[layer] ?? {}).map(([folder, allowed]) => {
    const forbidden = Object.keys(subfolders[layer]).filter((o) => o !== folder && !allowed.includes(o));
    const siblings = forbidden.map((other) => ({
      regex: `^(\\.\\./){${depth - 1}}${other}(/|$)`,
      message: `${layer}/${folder} may not import ${layer}/${other}: see docs/architecture.md (sub-folders)`,
    }));
    return {
      files: [`src/${layer}/${folder}/${"*/".repeat(depth - 2)}*.ts`],
      rules: { "no-restricted-imports": ["error", { patterns: [...layerPatterns(layer, depth), ...siblings] }] },
    };
  });
}
function layerBoundaries() {
  const blocks = [];
  for (const [layer, allowed] of Object.entries(layers)) {
    if (allowed === "*") continue;
    for (let depth = 1; depth <= deepestSourceFolder; depth++) {
      blocks.push({
        files: [`src/${layer}/${"*/".repeat(depth - 1)}*.ts`],
        rules: { "no-restricted-imports": ["error", { patterns: layerPatterns(layer, depth) }] },
      });
      blocks.push(...subfolderBlocks(layer, depth));
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

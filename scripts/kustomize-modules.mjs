// Where the Go module cache holds a module of the pinned kustomize (tools/versions.env), at the version
// kustomize's own go.mod requires — shared by the scripts that generate tables from kustomize's source.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * @param {"api" | "kyaml"} module a sigs.k8s.io/kustomize module
 * @returns {{ kustomizeVersion: string, version: string, dir: string }}
 */
export function kustomizeModule(module) {
  const versions = readFileSync("tools/versions.env", "utf8");
  const kustomizeVersion = /^KUSTOMIZE_VERSION=(\S+)/m.exec(versions)?.[1];
  if (!kustomizeVersion) throw new Error("tools/versions.env does not pin KUSTOMIZE_VERSION");
  const modCache = process.env.GOMODCACHE || execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  const kustomizeMod = readFileSync(
    join(modCache, "sigs.k8s.io/kustomize/kustomize", `v5@${kustomizeVersion}`, "go.mod"),
    "utf8",
  );
  const version = new RegExp(`sigs\\.k8s\\.io/kustomize/${module} (\\S+)`).exec(kustomizeMod)?.[1];
  if (!version) throw new Error(`kustomize ${kustomizeVersion}'s go.mod does not require the ${module} module`);
  return { kustomizeVersion, version, dir: join(modCache, "sigs.k8s.io/kustomize", `${module}@${version}`) };
}

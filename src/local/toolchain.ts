// Where the upstream tools built by tools/build.sh live, and building them on demand.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toolsDir } from "../binaries/tools-dir.js";
import { ToolchainError } from "./errors.js";

export interface Toolchain {
  dir: string;
  /** Multi-call binary: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl. */
  kube: string;
  kwok: string;
  kwokStages: string;
  kustomize: string;
}

/** Same layout from src/local (tests) and dist/local (built CLI): the repo root is two levels up. */
const BUILD_SCRIPT = fileURLToPath(new URL("../../tools/build.sh", import.meta.url));

export function locateToolchain(env: NodeJS.ProcessEnv = process.env): Toolchain {
  const dir = toolsDir(env);
  const bin = join(dir, "bin");
  return {
    dir,
    kube: join(bin, "flotilla-kube"),
    kwok: join(bin, "kwok"),
    kwokStages: join(dir, "share", "kwok-stages.yaml"),
    kustomize: join(bin, "kustomize"),
  };
}

const ERROR_PREFIX = "flotilla tools: error: ";

/** Runs tools/build.sh, echoing its progress (unless quiet) but keeping its error line for the caller. */
function runBuild(args: string[], env: NodeJS.ProcessEnv, quiet: boolean): Promise<{ code: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [BUILD_SCRIPT, ...args], { env, stdio: ["ignore", "inherit", "pipe"] });
    let pending = "";
    let error: string | undefined;
    const handle = (line: string) => {
      if (line.startsWith(ERROR_PREFIX)) error = line.slice(ERROR_PREFIX.length);
      else if (!quiet && line) process.stderr.write(`${line}\n`);
    };
    child.stderr.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      lines.forEach(handle);
    });
    child.once("error", reject);
    child.once("close", (code) => {
      handle(pending);
      resolve({ code: code ?? 1, error });
    });
  });
}

/**
 * Returns the toolchain, building missing or outdated tools first (the build prints progress).
 * Fails with the build script's own one-line reason, e.g. that Go is missing.
 */
export async function ensureToolchain(
  tools: ("controlplane" | "kwok" | "helm" | "kustomize")[] = ["controlplane", "kwok"],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Toolchain> {
  const toolchain = locateToolchain(env);
  if (!existsSync(BUILD_SCRIPT)) {
    if (existsSync(toolchain.kube) && existsSync(toolchain.kwok)) return toolchain;
    throw new ToolchainError(
      `upstream tools not found in ${toolchain.dir} and no tools/build.sh to build them; set FLOTILLA_TOOLS_DIR`,
    );
  }
  const check = await runBuild(["--check", ...tools], env, true);
  if (check.code === 0) return toolchain;
  const build = await runBuild(tools, env, false);
  if (build.code !== 0)
    throw new ToolchainError(build.error ?? `building the upstream tools failed (exit ${build.code})`);
  return toolchain;
}

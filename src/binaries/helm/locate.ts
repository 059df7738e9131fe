// Finding helm and checking it once. Lookup order: the pinned toolchain ($FLOTILLA_TOOLS_DIR/bin/helm,
// else ~/.cache/flotilla/tools/bin/helm), then `helm` on PATH (a container image). A binary's version
// is checked on its first use in a process and remembered: helm v3 or v4, as kustomize requires.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { executable, onPath, toolsDir } from "../tools-dir.js";
import { HelmNotFoundError, HelmVersionError } from "./errors.js";

const SUPPORTED_MAJORS = ["3", "4"];
const VERSION_TIMEOUT_MS = 30_000;

/**
 * The helm binary to run, as an absolute path. `command` is an explicit choice (kustomize's
 * --helm-command): a path, or a name looked up on PATH.
 */
export function locateHelm(command?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (command) {
    const found = command.includes("/") ? resolve(command) : onPath(command, env);
    if (found && executable(found)) return found;
    throw new HelmNotFoundError(`helm not found: '${command}' is not an executable file or a command on PATH`);
  }
  const pinned = join(toolsDir(env), "bin", "helm");
  if (existsSync(pinned)) return pinned;
  const found = onPath("helm", env);
  if (found) return found;
  throw new HelmNotFoundError(
    `helm not found: not at ${pinned} nor on PATH; build the pinned one with \`npm run tools\` ` +
      `(or set FLOTILLA_TOOLS_DIR), or install helm v3 or newer on PATH`,
  );
}

const checked = new Map<string, string>();

function parseVersion(binary: string, out: string): string {
  const version = /v?\d+(\.\d+)+/.exec(out)?.[0];
  if (!version) throw new HelmVersionError(`cannot find a version in the output of ${binary} version: ${out.trim()}`);
  const major = version.replace(/^v/, "").split(".")[0]!;
  if (!SUPPORTED_MAJORS.includes(major))
    throw new HelmVersionError(
      `helm v3 or v4 is needed, found ${version} at ${binary}; run \`npm run tools\` for the pinned helm`,
    );
  return version;
}

/**
 * The version of `binary` (an absolute path from locateHelm), checked the first time only: later
 * calls in this process answer from memory. Throws HelmVersionError for an unsupported helm.
 */
export function helmVersion(binary: string): string {
  const known = checked.get(binary);
  if (known) return known;
  if (!isAbsolute(binary)) throw new HelmNotFoundError(`helm binary must be an absolute path, got '${binary}'`);
  // `version` reads no configuration: a bare environment (HOME only so helm can name its defaults).
  const r = spawnSync(binary, ["version", "--short"], {
    env: { PATH: process.env.PATH ?? "", HOME: tmpdir() },
    encoding: "utf8",
    timeout: VERSION_TIMEOUT_MS,
  });
  if (r.error) throw new HelmNotFoundError(`cannot run ${binary}: ${r.error.message}`);
  if (r.status !== 0)
    throw new HelmVersionError(`${binary} version failed: ${r.stderr.trim() || `exit status ${r.status ?? r.signal}`}`);
  const version = parseVersion(binary, r.stdout);
  checked.set(binary, version);
  return version;
}

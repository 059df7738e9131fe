// What build, push and diff artifact share (flux's build_artifact.go): the --path, `-` meaning the
// manifests on stdin (saved to a temporary .yaml file, trailing newlines trimmed), and the ignore rules:
// --ignore-paths replaces flux's defaults (sourceignore's VCS and binary-file patterns), and
// --add-ignore-paths appends to them. --resolve-symlinks is refused by name: the archive leaves links out.
import { type Command, Option } from "commander";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FLUX_DEFAULT_IGNORE_PATHS } from "../../../sources/oci/flux-artifact.js";
import { makeWorkDir } from "../../../util/work-dir.js";
import { UsageError } from "../../errors.js";
import { collectSlice } from "../create/flux-refs.js";

export interface ContentFlags {
  path?: string;
  ignorePaths: string[];
  addIgnorePaths: string[];
  resolveSymlinks?: boolean;
}

/** --ignore-paths and --add-ignore-paths (pflag string slices; a given --ignore-paths replaces the default). */
export function withIgnoreFlags(cmd: Command, symlinks = true): Command {
  cmd
    .addOption(
      new Option("--ignore-paths <paths>", "set paths to ignore in .gitignore format")
        .argParser((v: string, prev: string[]) => collectSlice(v, prev === FLUX_DEFAULT_IGNORE_PATHS ? [] : prev))
        .default(FLUX_DEFAULT_IGNORE_PATHS),
    )
    .addOption(
      new Option(
        "--add-ignore-paths <paths>",
        "additional paths to ignore in .gitignore format (appended to --ignore-paths)",
      )
        .argParser(collectSlice)
        .default([]),
    );
  if (symlinks) cmd.option("--resolve-symlinks", "resolve symlinks by copying their targets into the artifact");
  return cmd;
}

/** composeIgnorePaths: --ignore-paths then --add-ignore-paths, in order. */
export const ignorePathsOf = (f: ContentFlags) => [...f.ignorePaths, ...f.addIgnorePaths];

/**
 * The path to archive (stdin saved to a file for `-` where the verb takes it: build and push), and what
 * to remove afterwards. `withCause`: push adds the stat error to its message, build and diff do not.
 */
export function contentPath(
  f: ContentFlags,
  o: { withCause: boolean; stdin: boolean },
): { path: string; cleanup(): void } {
  const withCause = o.withCause;
  if (!f.path) throw new UsageError(`invalid path "${f.path ?? ""}"`);
  if (f.resolveSymlinks)
    throw new UsageError(
      "--resolve-symlinks is not supported by flotilla: artifacts leave symbolic links out; copy their targets into --path",
    );
  let path = f.path;
  let cleanup = () => {};
  if (path === "-" && o.stdin) {
    const dir = makeWorkDir("flotilla-artifact-stdin-");
    path = join(dir, "stdin.yaml");
    writeFileSync(
      path,
      readFileSync(0)
        .toString("utf8")
        .replace(/[\r\n]+$/, ""),
    );
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  try {
    statSync(path);
  } catch (err) {
    cleanup();
    const cause = withCause
      ? `: stat ${path}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message}`
      : "";
    throw new UsageError(`invalid path '${path}', must point to an existing directory or file${cause}`);
  }
  return { path, cleanup };
}

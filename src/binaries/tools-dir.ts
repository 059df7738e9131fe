// Where flotilla's pinned upstream tools live: $FLOTILLA_TOOLS_DIR, else ~/.cache/flotilla/tools
// (tools/build.sh builds into <dir>/bin). Shared by the toolchain builder (local/) and the wrappers here,
// with how a wrapper finds a program on PATH when the pinned one is not there (a container image).
import { accessSync, constants, existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FLOTILLA_TOOLS_DIR || join(homedir(), ".cache", "flotilla", "tools");
}

/** Whether `file` may be executed by this process. */
export function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the directories of env.PATH, or undefined. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const file = join(dir, name);
    if (existsSync(file) && executable(file)) return file;
  }
  return undefined;
}

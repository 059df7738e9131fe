// Where flotilla's pinned upstream tools live: $FLOTILLA_TOOLS_DIR, else ~/.cache/flotilla/tools
// (tools/build.sh builds into <dir>/bin). Shared by the toolchain builder (local/) and the wrappers here.
import { homedir } from "node:os";
import { join } from "node:path";

export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FLOTILLA_TOOLS_DIR || join(homedir(), ".cache", "flotilla", "tools");
}

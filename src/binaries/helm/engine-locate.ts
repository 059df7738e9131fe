// Finding the resident helm engine (tools/helm-engine): the pinned toolchain's
// ($FLOTILLA_TOOLS_DIR/bin/helm-engine, else ~/.cache/flotilla/tools/bin/helm-engine), then
// `helm-engine` on PATH (a container image). Missing, it fails loudly with what to do.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { onPath, toolsDir } from "../tools-dir.js";
import { HelmNotFoundError } from "./errors.js";

export function locateHelmEngine(env: NodeJS.ProcessEnv = process.env): string {
  const pinned = join(toolsDir(env), "bin", "helm-engine");
  if (existsSync(pinned)) return pinned;
  const found = onPath("helm-engine", env);
  if (found) return found;
  throw new HelmNotFoundError(
    `helm engine not found: not at ${pinned} nor on PATH; build the pinned one with \`npm run tools\` ` +
      `(or \`bash tools/build.sh helm-engine\`, or set FLOTILLA_TOOLS_DIR), or run the controller with ` +
      `--helm-engine=false to start a helm process per action`,
  );
}

// helm v4's --post-renderer takes the NAME of a plugin of type postrenderer/v1 found in HELM_PLUGINS
// (helm pkg/postrenderer, internal/plugin/runtime_subprocess.go: manifests on stdin, the result on
// stdout, empty output an error). flotilla installs one per HelmRelease into the run's private helm
// home whose command is this same flotilla's post-render entry (plugin-main.ts: `node plugin-main.js
// --config <file>`, the work of `flotilla helm-post-render`) with the HelmRelease's post-render fields
// in that file. helm drops a plugin's stderr and reports only
// "exited with error", so the verb also leaves its message in the plugin directory (postRenderFailure).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HelmHome } from "../../../binaries/helm/index.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { FlotillaError } from "../../../util/errors.js";
import { postRender } from "./render.js";

/**
 * The plugin's entry in this installation's dist/ (from src/ under tests as from dist/: both sit four
 * levels under the root), a module that loads only the post-render code.
 */
const PLUGIN_ENTRY = fileURLToPath(
  new URL("../../../../dist/controllers/helmrelease/post-render/plugin-main.js", import.meta.url),
);
const CONFIG = "helmrelease.json";
const FAILURE = "failure.txt";

export class PostRendererSetupError extends FlotillaError {
  override name = "PostRendererSetupError";
}

/** One plugin per HelmRelease, so releases sharing a home never run each other's post-renderer. */
function pluginName(hr: HelmRelease): string {
  const id = createHash("sha256").update(`${hr.metadata.namespace}/${hr.metadata.name}`).digest("hex");
  return `flotilla-post-render-${id.slice(0, 12)}`;
}

const pluginDir = (home: HelmHome, hr: HelmRelease) => join(home.dir, "plugins", pluginName(hr));

/**
 * Installs flotilla's postrenderer/v1 plugin for `hr` into `home` (its HELM_PLUGINS) and returns the
 * helm arguments that use it. Any failure message of a previous run is cleared.
 */
export function preparePostRenderer(home: HelmHome, hr: HelmRelease): string[] {
  // helm splits the command at spaces and expands $VARS in every argument: paths must survive both.
  if (process.execPath.includes(" ") || /[$]/.test(process.execPath + PLUGIN_ENTRY))
    throw new PostRendererSetupError(
      `cannot install the HelmRelease post-renderer: helm cannot run ${process.execPath} ${PLUGIN_ENTRY} (a space or '$' in the path); install node and flotilla under paths without them`,
    );
  const dir = pluginDir(home, hr);
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, FAILURE), { force: true });
  const { apiVersion, kind, metadata, spec } = hr;
  const stored = {
    apiVersion,
    kind,
    metadata: { name: metadata.name, namespace: metadata.namespace },
    spec: { interval: spec.interval, postRenderers: spec.postRenderers, commonMetadata: spec.commonMetadata },
  };
  writeFileSync(join(dir, CONFIG), JSON.stringify(stored));
  // JSON is YAML: helm reads plugin.yaml with a YAML reader.
  const manifest = {
    apiVersion: "v1",
    name: pluginName(hr),
    type: "postrenderer/v1",
    runtime: "subprocess",
    version: "1.0.0",
    runtimeConfig: {
      platformCommand: [
        {
          command: process.execPath,
          args: [PLUGIN_ENTRY, "--config", `\${HELM_PLUGIN_DIR}/${CONFIG}`],
        },
      ],
    },
  };
  writeFileSync(join(dir, "plugin.yaml"), `${JSON.stringify(manifest, null, 2)}\n`);
  return ["--post-renderer", pluginName(hr)];
}

/** What the post-renderer of `hr` failed with in `home`'s last helm run, if it failed. */
export function postRenderFailure(home: HelmHome, hr: HelmRelease): string | undefined {
  try {
    return readFileSync(join(pluginDir(home, hr), FAILURE), "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The plugin's work (`flotilla helm-post-render`): post-renders `manifests` for the HelmRelease in
 * `configPath`. Output is never empty, which helm would take for a failure: a chart that renders no
 * object gives a lone document separator.
 */
export function runPostRenderPlugin(configPath: string, manifests: string): string {
  try {
    const hr = JSON.parse(readFileSync(configPath, "utf8")) as HelmRelease;
    return postRender(manifests, hr) || "---\n";
  } catch (err) {
    writeFileSync(join(dirname(configPath), FAILURE), (err as Error).message);
    throw err;
  }
}

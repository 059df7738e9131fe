// `flotilla helm-post-render --config <file>` (hidden): the command of the postrenderer/v1 helm plugin
// flotilla installs for a HelmRelease (controllers/helmrelease/post-render/plugin.ts). helm writes the
// rendered manifests to stdin and installs what comes out on stdout.
import { Command } from "commander";
import { runPostRenderPlugin } from "../../controllers/helmrelease/post-render/post-renderer.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function helmPostRenderCommand(): Command {
  return new Command("helm-post-render")
    .description("post-render helm's manifests for a HelmRelease (run by helm as a plugin)")
    .requiredOption("--config <file>", "the HelmRelease's post-render settings, written by flotilla")
    .action(async (opts: { config: string }) => {
      const out = runPostRenderPlugin(opts.config, await readStdin());
      await new Promise<void>((resolve, reject) => process.stdout.write(out, (err) => (err ? reject(err) : resolve())));
    });
}

// The process helm runs as flotilla's postrenderer/v1 plugin: `node plugin-main.js --config <file>`,
// manifests on stdin, the post-rendered manifests on stdout. It loads only the post-render code: through
// the whole CLI (`flotilla helm-post-render`, still there) a run cost 0.4 s of CPU, here 0.1 s — once per
// helm action, the largest part of a HelmRelease's CPU (bench:vs-flux).
import { runPostRenderPlugin } from "./plugin.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const at = process.argv.indexOf("--config");
const config = at > 0 ? process.argv[at + 1] : undefined;
if (!config) {
  process.stderr.write("✗ flotilla post-renderer: --config <file> is required\n");
  process.exitCode = 1;
} else {
  try {
    const out = runPostRenderPlugin(config, await readStdin());
    await new Promise<void>((resolve, reject) => process.stdout.write(out, (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    // runPostRenderPlugin left the message beside the config for the controller (helm drops stderr).
    process.stderr.write(`✗ ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

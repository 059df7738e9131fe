#!/usr/bin/env node
// Entry point of the `flotilla` CLI; the TypeScript sources are compiled to dist/ by `npm run build`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

// undici (every kube, OCI and Helm request) parses HTTP with llhttp compiled to WebAssembly. V8 runs it
// from its baseline compiler, Liftoff, and recompiles the hot parser with TurboFan: llhttp is one huge
// function and that compilation takes ~33 MiB of native memory for a moment, the controller's peak RSS
// (decision 0050). Liftoff's code is kept instead; read when the module is compiled, on the first request.
setFlagsFromString("--liftoff-only");

// `flotilla get … | head` closes stdout early: that ends the command quietly, as it does for kubectl.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  // A fresh clone: say what to run instead of a module-not-found stack trace.
  process.stderr.write(
    "✗ flotilla is not built yet: run `npm install && npm run build` in " +
      fileURLToPath(new URL("..", import.meta.url)) +
      "\n",
  );
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);

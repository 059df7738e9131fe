#!/usr/bin/env node
// Entry point of the `flotilla` CLI; the TypeScript sources are compiled to dist/ by `npm run build`.
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv);

// Writes charts/flotilla/crds/ from the built CRDs (`npm run chart:crds` builds first) and removes files
// of CRDs that are gone. test/unit/chart/chart-crds.test.ts fails until this has run after a CRD change.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHART_CRDS_DIR, chartCrdFiles } from "../dist/cli/chart-crds.js";

const files = chartCrdFiles();
mkdirSync(CHART_CRDS_DIR, { recursive: true });
for (const name of readdirSync(CHART_CRDS_DIR)) if (!(name in files)) rmSync(join(CHART_CRDS_DIR, name));
for (const [name, text] of Object.entries(files)) writeFileSync(join(CHART_CRDS_DIR, name), text);
console.log(`${Object.keys(files).length} CRDs written to ${CHART_CRDS_DIR}`);

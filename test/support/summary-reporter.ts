// Prints the plain closing line "N passed, N failed[, N skipped]" that CI reads in any language.
// scripts/test.sh runs vitest more than once (unit, then two e2e lanes at the same time): there each run
// appends its counts to $FLOTILLA_TEST_SUMMARY_FILE instead, and the script prints the one closing line.
// Each failed test is also named there (a "FAILED" line with its first error line), so the last lines of a
// long CI log say which test failed without scrolling back through both lanes.
import { appendFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") {
          failed++;
          const error = test.result().errors?.[0]?.message?.split("\n")[0] ?? "";
          failures.push(
            `FAILED ${mod.moduleId.replace(process.cwd() + "/", "")} > ${test.fullName}: ${error.slice(0, 300)}`,
          );
        } else skipped++;
      }
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) {
        failed++;
        const error = mod.errors()[0]?.message?.split("\n")[0] ?? "";
        failures.push(`FAILED ${mod.moduleId.replace(process.cwd() + "/", "")}: ${error.slice(0, 300)}`);
      }
    }
    const file = process.env.FLOTILLA_TEST_SUMMARY_FILE;
    if (file) {
      appendFileSync(file, `${passed} ${failed} ${skipped}\n`);
      if (failures.length) appendFileSync(`${file}.failed`, failures.join("\n") + "\n");
    } else {
      for (const line of failures) process.stdout.write(`${line}\n`);
      process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
    }
  }
}

// `flotilla demo`: GitOps across the local fleet, from one Git commit to every tenant plane.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "commander";
import { FleetNotFoundError, InvalidFleetOptionError } from "../../local/errors.js";
import { isFleetLive } from "../../local/fleet-state.js";
import { defaultFleetDir, locateToolchain, readFleetState } from "../../local/index.js";
import { runDemo } from "../../demo/run-demo.js";
import { success } from "../output.js";
import { renderTable } from "../table.js";
import { createLogger } from "../../runtime/logger.js";

export function demoCommand(): Command {
  return new Command("demo")
    .description(
      "serve a fleet repository over Git, run the controllers and roll it out to every tenant plane of the local fleet",
    )
    .addOption(
      new Option("--dir <dir>", "fleet state directory").default(defaultFleetDir(), "$XDG_STATE_HOME/flotilla/local"),
    )
    .option("--timeout <seconds>", "how long to wait for each rollout", "180")
    .action(async (opts: { dir: string; timeout: string }) => {
      const state = readFleetState(opts.dir);
      if (!state || !isFleetLive(state))
        throw new FleetNotFoundError(`no running local fleet in ${opts.dir}; start one with: flotilla local up`);
      const plane = (p: { name: string; kubeconfig: string }) => ({ name: p.name, kubeconfig: p.kubeconfig });
      const management = state.planes.find((p) => p.role === "management");
      const tenants = state.planes.filter((p) => p.role === "tenant").map(plane);
      if (!management || tenants.length === 0)
        throw new InvalidFleetOptionError(
          `the fleet in ${opts.dir} has no tenant planes; restart it with: flotilla local down && flotilla local up --tenants 2`,
        );
      const demoDir = join(opts.dir, "demo");
      const storagePath = join(demoDir, "artifacts");
      rmSync(storagePath, { recursive: true, force: true });
      mkdirSync(storagePath, { recursive: true });
      const logFile = join(demoDir, "controllers.log");
      writeFileSync(logFile, "");
      const log = createLogger({ level: "info", write: (line) => appendFileSync(logFile, line) });
      const started = Date.now();
      const result = await runDemo({
        management: plane(management),
        tenants,
        storagePath,
        log,
        timeoutMs: Number(opts.timeout) * 1000,
        view: {
          step: (message) => process.stdout.write(`► ${message}\n`),
          table: (headers, rows) => process.stdout.write(`\n${renderTable(headers, rows)}\n\n`),
        },
      });
      success(`every tenant plane runs ${result.revision} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
      const kubectl = join(locateToolchain().dir, "bin", "kubectl");
      const helm = join(locateToolchain().dir, "bin", "helm");
      process.stdout.write(
        "\nThe demo's Git server and controllers have stopped; the objects stay in place and running the demo\n" +
          "again is safe. Look around with:\n" +
          `  less ${logFile}   # the controllers' log\n` +
          `  ${kubectl} --kubeconfig ${management.kubeconfig} get gitrepositories,kustomizations,helmrepositories,helmreleases -n tenants\n` +
          `  ${kubectl} --kubeconfig ${tenants[0]!.kubeconfig} get deployments,configmaps -n podinfo\n` +
          `  ${helm} ls -A --kubeconfig ${tenants[0]!.kubeconfig}   # the add-on's Helm release, stored in the tenant\n`,
      );
    });
}

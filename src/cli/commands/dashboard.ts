// `flotilla dashboard`: the fleet in a browser — every cluster, what runs where and what is failing,
// live — served by this process on the loopback address unless told otherwise. Actions run with the
// kubeconfig's identity; --read-only turns them off.
import { Command, Option } from "commander";
import { startDashboard } from "../../dashboard/server.js";
import { addManagementFlags, clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { step, success } from "../output.js";

interface Flags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  address: string;
  port: string;
  readOnly?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export function dashboardCommand(): Command {
  return addManagementFlags(
    new Command("dashboard").description(
      "Serve the fleet dashboard: clusters, apps, failures and rollouts, live, with reconcile/suspend/resume/approve",
    ),
  )
    .option("-n, --namespace <name>", "only this namespace's objects (default: every namespace)")
    .addOption(new Option("--address <ip>", "the address to serve on").default("127.0.0.1"))
    .addOption(new Option("--port <port>", "the port to serve on (0: any free port)").default("9333"))
    .option("--read-only", "turn the actions off")
    .addHelpText(
      "after",
      "\nExamples:\n  flotilla dashboard --kubeconfig /tmp/fleet/kubeconfigs/management.kubeconfig\n  flotilla dashboard --read-only --port 0",
    )
    .action(async (f: Flags) => {
      const port = Number(f.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port ${f.port}: not a port number`);
      const cluster = clusterOf({ ...f, namespace: f.namespace ?? "", timeout: "5m" });
      if (!LOOPBACK.has(f.address))
        step(
          `serving on ${f.address}: anyone who can reach it ${f.readOnly ? "sees the fleet" : "acts with this kubeconfig's identity"}`,
        );
      const dashboard = await startDashboard({
        cluster,
        address: f.address,
        port,
        readOnly: f.readOnly === true,
        ...(f.namespace ? { namespace: f.namespace } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      success(`dashboard ready${f.readOnly ? " (read-only)" : ""}`);
      process.stdout.write(`${dashboard.url}\n`);
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
      });
      await dashboard.close();
    });
}

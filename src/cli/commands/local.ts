// `flotilla local up|status|down`: the embedded local fleet of real control planes.
import { Command, Option } from "commander";
import { InvalidFleetOptionError } from "../../local/errors.js";
import { ExitError } from "../errors.js";
import { liveProcesses } from "../../local/fleet-state.js";
import {
  addTenant,
  defaultFleetDir,
  downFleet,
  type FleetStatus,
  fleetStatus,
  readFleetState,
  restartComponent,
  restartEtcd,
  upFleet,
} from "../../local/index.js";
import type { ComponentName } from "../../local/components.js";
import { terminate } from "../../local/processes.js";
import { step, success } from "../output.js";
import { formatBytes, renderTable } from "../table.js";

function parsePort(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > 65535)
      throw new InvalidFleetOptionError(`${flag} must be a port number from 1 to 65535, got "${value}"`);
    return n;
  };
}

const collect = (value: string, previous: string[]) => [...previous, value];

const dirOption = () =>
  new Option("--dir <dir>", "fleet state directory").default(defaultFleetDir(), "$XDG_STATE_HOME/flotilla/local");

export function printFleetStatus(status: FleetStatus): void {
  const rows = status.planes.map((p) => [
    p.name,
    p.role,
    p.endpoint,
    p.version || "-",
    p.health,
    formatBytes(p.memory.pss),
    p.reason ?? "",
  ]);
  process.stdout.write(
    `${renderTable(["PLANE", "ROLE", "ENDPOINT", "VERSION", "HEALTH", "MEMORY", "MESSAGE"], rows)}\n`,
  );
  if (status.etcd) {
    process.stdout.write(
      `\nshared etcd: ${status.etcd.endpoint} ${status.etcd.running ? "running" : "stopped"}, memory ${formatBytes(status.etcd.memory.pss)}\n`,
    );
  }
  process.stdout.write(`kubeconfigs: ${status.dir}/kubeconfigs/<plane>.kubeconfig\n`);
  process.stdout.write("MEMORY is the proportional set size (shared binary pages split between processes).\n");
}

export function localCommand(): Command {
  const local = new Command("local").description(
    "run a local fleet of real Kubernetes control planes (one management plane + N tenant planes)",
  );

  local
    .command("up")
    .description(
      "start one shared etcd and 1+N control planes, each with its own CA, controller-manager, scheduler and kwok node",
    )
    .option("--tenants <n>", "number of tenant control planes (0 starts the management plane alone)", "2")
    .addOption(dirOption())
    .option(
      "--api-port <port>",
      "port of the management plane's apiserver on 127.0.0.1 (default: a free port)",
      parsePort("--api-port"),
    )
    .option(
      "--etcd-port <port>",
      "client port of the shared etcd on 127.0.0.1 (default: a free port)",
      parsePort("--etcd-port"),
    )
    .option("--timeout <seconds>", "how long to wait for each plane to become ready", "120")
    .option(
      "--apiserver-arg <flag>",
      "extra kube-apiserver flag for every plane, e.g. --feature-gates=... (repeatable)",
      collect,
      [],
    )
    .action(
      async (opts: {
        tenants: string;
        dir: string;
        apiPort?: number;
        etcdPort?: number;
        timeout: string;
        apiserverArg: string[];
      }) => {
        const timeout = Number(opts.timeout);
        if (!Number.isFinite(timeout) || timeout <= 0)
          throw new InvalidFleetOptionError(`--timeout must be a positive number of seconds, got "${opts.timeout}"`);
        // Ctrl-C during start-up must not leave half a fleet running.
        const interrupt = async () => {
          const state = readFleetState(opts.dir);
          if (state) await terminate(liveProcesses(state));
          process.exit(130);
        };
        process.once("SIGINT", interrupt);
        process.once("SIGTERM", interrupt);
        const result = await upFleet({
          dir: opts.dir,
          tenants: opts.tenants as unknown as number,
          apiPort: opts.apiPort,
          etcdPort: opts.etcdPort,
          apiserverArgs: opts.apiserverArg,
          timeoutMs: timeout * 1000,
          log: step,
        });
        process.off("SIGINT", interrupt);
        process.off("SIGTERM", interrupt);
        success(
          `local fleet ready in ${(result.durationMs / 1000).toFixed(1)}s (${result.state.planes.length} planes, ${result.state.kubernetesVersion})`,
        );
        printFleetStatus(await fleetStatus(result.dir));
      },
    );

  local
    .command("status")
    .description("list the planes of the local fleet with endpoint, version, health and memory")
    .addOption(dirOption())
    .addOption(new Option("-o, --output <format>", "output format").choices(["table", "json"]).default("table"))
    .action(async (opts: { dir: string; output: string }) => {
      const status = await fleetStatus(opts.dir);
      if (opts.output === "json") process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      else printFleetStatus(status);
      // The table already says which plane is not Ready.
      if (status.planes.some((p) => p.health !== "Ready")) throw new ExitError(1);
    });

  local
    .command("add-tenant <name>")
    .description(
      "start one more tenant plane on the running fleet and register it as Kamaji would (a TenantControlPlane and its admin kubeconfig Secret); adding a running tenant again changes nothing",
    )
    .addOption(dirOption())
    .option("--timeout <seconds>", "how long to wait for the plane to become ready", "120")
    .action(async (name: string, opts: { dir: string; timeout: string }) => {
      const timeout = Number(opts.timeout);
      if (!Number.isFinite(timeout) || timeout <= 0)
        throw new InvalidFleetOptionError(`--timeout must be a positive number of seconds, got "${opts.timeout}"`);
      const result = await addTenant({ dir: opts.dir, name, timeoutMs: timeout * 1000, log: step });
      if (!result.added) success(`tenant ${name} is already running: nothing to do`);
      else success(`tenant ${name} added in ${(result.durationMs / 1000).toFixed(1)}s (${result.plane.kubeconfig})`);
    });

  local
    .command("restart <plane>")
    .description(
      "stop and start one component of a plane with the same arguments (etcd keeps the state); `restart etcd` restarts the shared etcd and waits for every plane",
    )
    .addOption(dirOption())
    .addOption(
      new Option("--component <name>", "component to restart")
        .choices(["kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"])
        .default("kube-apiserver"),
    )
    .action(async (plane: string, opts: { dir: string; component: ComponentName }) => {
      if (plane === "etcd") {
        await restartEtcd(opts.dir);
        success("restarted the shared etcd; every plane's kube-apiserver is ready again");
        return;
      }
      await restartComponent(opts.dir, plane, opts.component);
      success(`restarted ${opts.component} of plane ${plane}`);
    });

  local
    .command("down")
    .description("stop every process of the local fleet and remove its state")
    .addOption(dirOption())
    .action(async (opts: { dir: string }) => {
      const result = await downFleet(opts.dir);
      success(
        `stopped ${result.stopped} processes of planes ${result.planes.join(", ")}; removed fleet state in ${opts.dir}`,
      );
    });

  return local;
}

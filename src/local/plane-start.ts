// Starting one control plane on the fleet's shared etcd — kube-apiserver, controller-manager,
// scheduler and a kwok node — each process recorded in the fleet state as it starts, so a run killed
// half-way leaves enough behind to clean up. Shared by `local up` and `local add-tenant`.
import { setTimeout as sleep } from "node:timers/promises";
import { KubeClient } from "../kube/client.js";
import { endpointFromKubeconfig } from "../kube/kubeconfig.js";
import {
  bootstrapRbac,
  hasDefaultServiceAccount,
  isApiserverReady,
  isNodeReady,
  registerKwokNode,
} from "./bootstrap.js";
import { apiserverArgs, type ComponentName, controllerManagerArgs, kwokArgs, schedulerArgs } from "./components.js";
import { PlaneStartError } from "./errors.js";
import type { FleetState, RecordedProcess } from "./fleet-state.js";
import type { PlaneFiles } from "./plane-files.js";
import { isRunning, spawnDaemon, tailLog } from "./processes.js";
import type { Toolchain } from "./toolchain.js";

export interface PlaneStart {
  state: FleetState;
  save(): void;
  toolchain: Toolchain;
  etcdPort: number;
  timeoutMs: number;
  /** Extra kube-apiserver flags (feature gates, audit logging, ...). */
  apiserverArgs?: string[];
  /** Extra kube-controller-manager flags (benchmarks: its client's QPS). */
  controllerManagerArgs?: string[];
}

/** Starts a process of `plane` (or the shared etcd) and records it in the state at once. */
export async function startRecorded(
  ctx: Pick<PlaneStart, "state" | "save">,
  plane: string,
  component: ComponentName,
  command: string,
  args: string[],
  logFile: string,
  etcdPort?: number,
): Promise<RecordedProcess> {
  const pid = await spawnDaemon({ command, args, logFile });
  const proc: RecordedProcess = { component, pid, command, args, logFile };
  if (component === "etcd") ctx.state.etcd = { port: etcdPort!, process: proc };
  else ctx.state.planes.find((p) => p.name === plane)!.processes.push(proc);
  ctx.save();
  return proc;
}

export function clientFor(files: PlaneFiles, id: "superAdmin" | "admin", plane: string): KubeClient {
  return new KubeClient(endpointFromKubeconfig(files.kubeconfigText[id], { source: `${plane} ${id} kubeconfig` }));
}

export async function startPlane(
  p: { name: string; port: number; files: PlaneFiles; kwokPort: number },
  ctx: PlaneStart,
): Promise<void> {
  const { files, name } = p;
  const pki = files.pki.files;
  const tc = ctx.toolchain;
  const start = (component: ComponentName, command: string, args: string[]) =>
    startRecorded(ctx, name, component, command, args, files.logFile(component));
  const apiserver = await start(
    "kube-apiserver",
    tc.kube,
    apiserverArgs({
      plane: name,
      port: p.port,
      etcdPort: ctx.etcdPort,
      certFile: pki.servingCert,
      keyFile: pki.servingKey,
      clientCaFile: pki.ca,
      serviceAccountKeyFile: pki.serviceAccountKey,
      serviceAccountPubFile: pki.serviceAccountPub,
    }).concat(ctx.apiserverArgs ?? []),
  );
  const client = clientFor(files, "superAdmin", name);
  await waitReady(name, apiserver, ctx.timeoutMs, () => isApiserverReady(client));
  const version = await client.get<{ gitVersion: string }>("/version");
  ctx.state.kubernetesVersion = version.gitVersion;
  await bootstrapRbac(client);
  const kcm = await start(
    "kube-controller-manager",
    tc.kube,
    controllerManagerArgs({
      kubeconfig: files.kubeconfigFile.controllerManager,
      clientCaFile: pki.ca,
      caKeyFile: pki.caKey,
      serviceAccountKeyFile: pki.serviceAccountKey,
    }).concat(ctx.controllerManagerArgs ?? []),
  );
  const scheduler = await start(
    "kube-scheduler",
    tc.kube,
    schedulerArgs({ kubeconfig: files.kubeconfigFile.scheduler }),
  );
  const kwok = await start(
    "kwok",
    tc.kwok,
    kwokArgs({ kubeconfig: files.kubeconfigFile.kwok, stagesFile: tc.kwokStages, serverPort: p.kwokPort }),
  );
  await registerKwokNode(client);
  const all = [apiserver, kcm, scheduler, kwok];
  await waitReady(name, all, ctx.timeoutMs, () => isNodeReady(client), "node kwok-node-0 Ready");
  await waitReady(name, all, ctx.timeoutMs, () => hasDefaultServiceAccount(client), "service account default/default");
}

/**
 * Waits for `check` while watching the processes it depends on: a process that exits fails at
 * once with the last line of its log, instead of waiting out the timeout.
 */
export async function waitReady(
  plane: string,
  processes: RecordedProcess | RecordedProcess[],
  timeoutMs: number,
  check: () => Promise<boolean>,
  what?: string,
): Promise<void> {
  const list = Array.isArray(processes) ? processes : [processes];
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    const dead = list.find((p) => !isRunning(p.pid, p.command, p.args));
    if (dead) {
      throw new PlaneStartError(plane, dead.component, `exited: ${tailLog(dead.logFile) || "no output"}`, dead.logFile);
    }
    try {
      if (await check()) return;
      lastError = "";
    } catch (err) {
      lastError = (err as Error).message;
    }
    await sleep(200);
  }
  const main = list[0]!;
  throw new PlaneStartError(
    plane,
    main.component,
    `not ready after ${Math.round(timeoutMs / 1000)}s${what ? ` (waiting for ${what})` : ""}${lastError ? `: ${lastError}` : ""}`,
    main.logFile,
  );
}

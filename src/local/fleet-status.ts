// `flotilla local status`: each plane's endpoint, version, health and memory, read live.
import { KubeClient } from "../kube/client.js";
import { endpointFromKubeconfigFile } from "../kube/kubeconfig.js";
import { isApiserverReady, isNodeReady } from "./bootstrap.js";
import { FleetNotFoundError } from "./errors.js";
import { type FleetState, type RecordedProcess, readFleetState } from "./fleet-state.js";
import { LOOPBACK } from "./ports.js";
import { isRunning, memoryOf, type ProcessMemory } from "./processes.js";

export type PlaneHealth = "Ready" | "NotReady" | "Unreachable" | "Stopped";

export interface PlaneStatus {
  name: string;
  role: string;
  endpoint: string;
  version: string;
  health: PlaneHealth;
  /** Why the plane is not Ready, when it is not. */
  reason?: string;
  processesRunning: number;
  processesTotal: number;
  /** Memory of the plane's processes (apiserver, controller-manager, scheduler, kwok), summed. */
  memory: PlaneMemory;
  kubeconfig: string;
}

export interface FleetStatus {
  dir: string;
  phase: FleetState["phase"];
  etcd?: { endpoint: string; running: boolean; memory: PlaneMemory };
  planes: PlaneStatus[];
}

export type PlaneMemory = ProcessMemory;

function memoryOfProcesses(processes: RecordedProcess[]): PlaneMemory {
  const sum: PlaneMemory = { rss: 0, pss: 0, peakRss: 0 };
  for (const p of processes) {
    const m = isRunning(p.pid, p.command, p.args) ? memoryOf(p.pid) : undefined;
    sum.rss += m?.rss ?? 0;
    sum.pss += m?.pss ?? 0;
    sum.peakRss += m?.peakRss ?? 0;
  }
  return sum;
}

export async function fleetStatus(dir: string): Promise<FleetStatus> {
  const state = readFleetState(dir);
  if (!state) throw new FleetNotFoundError(`no local fleet in ${dir} (start one with: flotilla local up --dir ${dir})`);
  const planes = await Promise.all(
    state.planes.map(async (plane): Promise<PlaneStatus> => {
      const running = plane.processes.filter((p) => isRunning(p.pid, p.command, p.args)).length;
      const mem = memoryOfProcesses(plane.processes);
      const status: PlaneStatus = {
        name: plane.name,
        role: plane.role,
        endpoint: `https://${LOOPBACK}:${plane.port}`,
        version: "",
        health: "Stopped",
        processesRunning: running,
        processesTotal: plane.processes.length,
        memory: mem,
        kubeconfig: plane.kubeconfig,
      };
      if (running === 0) return status;
      const client = new KubeClient(endpointFromKubeconfigFile(plane.superAdminKubeconfig));
      try {
        if (!(await isApiserverReady(client)))
          return { ...status, health: "Unreachable", reason: "apiserver /readyz not ok" };
        status.version = (await client.get<{ gitVersion: string }>("/version")).gitVersion;
        const stopped = plane.processes.filter((p) => !isRunning(p.pid, p.command, p.args)).map((p) => p.component);
        if (stopped.length) return { ...status, health: "NotReady", reason: `stopped: ${stopped.join(", ")}` };
        if (!(await isNodeReady(client)))
          return { ...status, health: "NotReady", reason: "node kwok-node-0 not Ready" };
        return { ...status, health: "Ready" };
      } catch (err) {
        return { ...status, health: "Unreachable", reason: (err as Error).message };
      }
    }),
  );
  const etcd = state.etcd;

  return {
    dir,
    phase: state.phase,
    etcd: etcd && {
      endpoint: `http://${LOOPBACK}:${etcd.port}`,
      running: isRunning(etcd.process.pid, etcd.process.command, etcd.process.args),
      memory: memoryOfProcesses([etcd.process]),
    },
    planes,
  };
}

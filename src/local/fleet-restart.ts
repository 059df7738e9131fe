// `flotilla local restart PLANE|etcd`: stop and start one component of a plane, or the shared etcd under
// every plane, with the same arguments — to test how controllers and watches ride out an apiserver
// restart or outage (etcd keeps the state), or a datastore restart under the whole fleet.
import { KubeClient } from "../kube/client.js";
import { endpointFromKubeconfigFile } from "../kube/kubeconfig.js";
import { isApiserverReady, isEtcdHealthy, waitFor } from "./bootstrap.js";
import type { ComponentName } from "./components.js";
import { FleetNotFoundError, InvalidFleetOptionError, PlaneStartError } from "./errors.js";
import { readFleetState, writeFleetState } from "./fleet-state.js";
import { isRunning, spawnDaemon, tailLog, terminate } from "./processes.js";

/** Stops one component of a plane (the fleet state keeps its command line for startComponent). */
export async function stopComponent(dir: string, planeName: string, component: ComponentName = "kube-apiserver") {
  const { proc } = findComponent(dir, planeName, component);
  await terminate([proc]);
}

/** Starts a stopped component again with the same arguments; for an apiserver, waits until it is ready. */
export async function startComponent(
  dir: string,
  planeName: string,
  component: ComponentName = "kube-apiserver",
  timeoutMs = 60_000,
): Promise<void> {
  const { state, plane, proc } = findComponent(dir, planeName, component);
  proc.pid = await spawnDaemon({ command: proc.command, args: proc.args, logFile: proc.logFile });
  writeFleetState(dir, state);
  if (component !== "kube-apiserver") return;
  await waitApiserverReady(planeName, plane.superAdminKubeconfig, proc.logFile, timeoutMs);
}

async function waitApiserverReady(planeName: string, kubeconfig: string, logFile: string, timeoutMs: number) {
  const client = new KubeClient(endpointFromKubeconfigFile(kubeconfig));
  await waitFor(`${planeName} kube-apiserver to be ready again`, () => isApiserverReady(client), timeoutMs).catch(
    (err) => {
      throw new PlaneStartError(planeName, "kube-apiserver", `${(err as Error).message}; ${tailLog(logFile)}`, logFile);
    },
  );
}

export async function restartComponent(
  dir: string,
  planeName: string,
  component: ComponentName = "kube-apiserver",
  timeoutMs = 60_000,
): Promise<void> {
  await stopComponent(dir, planeName, component);
  await startComponent(dir, planeName, component, timeoutMs);
}

function findComponent(dir: string, planeName: string, component: ComponentName) {
  const state = readFleetState(dir);
  if (!state) throw new FleetNotFoundError(`no local fleet in ${dir}`);
  const plane = state.planes.find((p) => p.name === planeName);
  if (!plane)
    throw new InvalidFleetOptionError(
      `no plane "${planeName}" in the fleet (planes: ${state.planes.map((p) => p.name).join(", ")})`,
    );
  const proc = plane.processes.find((p) => p.component === component);
  if (!proc) throw new InvalidFleetOptionError(`plane ${planeName} has no ${component}`);
  return { state, plane, proc };
}

/**
 * Restarts the shared etcd with its recorded arguments (same data directory: nothing is lost), then
 * waits until it is healthy and every running kube-apiserver is ready on it again, so the fleet is
 * whole when this returns.
 */
export async function restartEtcd(dir: string, timeoutMs = 60_000): Promise<void> {
  const state = readFleetState(dir);
  if (!state) throw new FleetNotFoundError(`no local fleet in ${dir}`);
  if (!state.etcd) throw new InvalidFleetOptionError(`the fleet in ${dir} has no shared etcd recorded`);
  const { port, process: proc } = state.etcd;
  await terminate([proc]);
  proc.pid = await spawnDaemon({ command: proc.command, args: proc.args, logFile: proc.logFile });
  writeFleetState(dir, state);
  await waitFor("the shared etcd to be healthy again", () => isEtcdHealthy(port), timeoutMs).catch((err) => {
    throw new PlaneStartError("etcd", "etcd", `${(err as Error).message}; ${tailLog(proc.logFile)}`, proc.logFile);
  });
  await Promise.all(
    state.planes.map((plane) => {
      const apiserver = plane.processes.find((p) => p.component === "kube-apiserver");
      if (!apiserver || !isRunning(apiserver.pid, apiserver.command, apiserver.args)) return undefined; // stopped on purpose
      return waitApiserverReady(plane.name, plane.superAdminKubeconfig, apiserver.logFile, timeoutMs);
    }),
  );
}

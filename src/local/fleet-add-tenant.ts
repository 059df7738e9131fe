// `flotilla local add-tenant NAME`: one more tenant plane on a running local fleet's etcd — its own CA,
// apiserver, controller-manager, scheduler and kwok node — registered in the management plane as Kamaji
// registers a plane (a TenantControlPlane and its admin kubeconfig Secret), so discovery and the fleet
// kinds see a new cluster arrive. Adding a tenant that is already running changes nothing.
import { readFileSync } from "node:fs";
import { KubeClient } from "../kube/client.js";
import { endpointFromKubeconfig } from "../kube/kubeconfig.js";
import { registerTenants } from "./bootstrap.js";
import { FleetNotFoundError, InvalidFleetOptionError, LocalFleetError } from "./errors.js";
import { isFleetLive, type PlaneRecord, readFleetState, writeFleetState } from "./fleet-state.js";
import { userKubeconfigPath, writePlaneFiles } from "./plane-files.js";
import { startPlane } from "./plane-start.js";
import { freePorts } from "./ports.js";
import { isRunning, terminate } from "./processes.js";
import { ensureToolchain, type Toolchain } from "./toolchain.js";

export interface AddTenantOptions {
  dir: string;
  name: string;
  timeoutMs?: number;
  toolchain?: Toolchain;
  log?: (line: string) => void;
}

export interface AddTenantResult {
  plane: PlaneRecord;
  /** False when the tenant was already running (nothing was done). */
  added: boolean;
  durationMs: number;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export async function addTenant(options: AddTenantOptions): Promise<AddTenantResult> {
  const started = Date.now();
  const { dir, name } = options;
  const log = options.log ?? (() => {});
  if (!DNS_LABEL.test(name) || name === "management")
    throw new InvalidFleetOptionError(
      `tenant name "${name}" must be a DNS label (lower-case letters, digits and '-') other than "management"`,
    );
  const state = readFleetState(dir);
  if (!state || !isFleetLive(state) || state.phase !== "running" || !state.etcd)
    throw new FleetNotFoundError(`no running local fleet in ${dir}: start one with flotilla local up --dir ${dir}`);
  const existing = state.planes.find((p) => p.name === name);
  if (existing) {
    if (existing.processes.every((p) => isRunning(p.pid, p.command, p.args)))
      return { plane: existing, added: false, durationMs: Date.now() - started };
    throw new LocalFleetError(
      `tenant ${name} exists in ${dir} but is not running: restart it with flotilla local restart ${name} --dir ${dir}`,
    );
  }
  const management = state.planes.find((p) => p.role === "management")!;
  const toolchain = options.toolchain ?? (await ensureToolchain(["controlplane", "kwok"]));
  const [port, kwokPort] = await freePorts(2);
  const files = writePlaneFiles(dir, name, port!);
  const plane: PlaneRecord = {
    name,
    role: "tenant",
    port: port!,
    kubeconfig: userKubeconfigPath(dir, name),
    superAdminKubeconfig: files.kubeconfigFile.superAdmin,
    processes: [],
  };
  state.planes.push(plane);
  const save = () => writeFleetState(dir, state);
  save();
  const timeoutMs = options.timeoutMs ?? 120_000;
  try {
    log(`starting tenant plane ${name}`);
    await startPlane(
      { name, port: port!, files, kwokPort: kwokPort! },
      { state, save, toolchain, etcdPort: state.etcd.port, timeoutMs },
    );
    log(`registering tenant control plane ${name} in namespace tenants of the management plane`);
    const mgmt = new KubeClient(
      endpointFromKubeconfig(readFileSync(management.superAdminKubeconfig, "utf8"), {
        source: "management super-admin kubeconfig",
      }),
    );
    await registerTenants(
      mgmt,
      [
        {
          tenant: name,
          port: port!,
          kubernetesVersion: state.kubernetesVersion,
          adminConf: files.kubeconfigText.admin,
          superAdminConf: files.kubeconfigText.superAdmin,
        },
      ],
      timeoutMs,
    );
    return { plane, added: true, durationMs: Date.now() - started };
  } catch (err) {
    // Nothing half-added stays: the new plane's processes stop and its record goes.
    await terminate(plane.processes);
    state.planes = state.planes.filter((p) => p !== plane);
    save();
    throw err instanceof LocalFleetError
      ? err
      : new LocalFleetError(`adding tenant ${name} failed: ${(err as Error).message}`);
  }
}

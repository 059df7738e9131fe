// `flotilla local up`: one shared etcd, then 1+N control planes on it (each with its own etcd
// prefix, CA, apiserver, controller-manager, scheduler and kwok node), then the Kamaji-shaped
// tenant records in the management plane. Any failure stops everything that was started.
import { mkdirSync } from "node:fs";
import { isEtcdHealthy, registerTenants } from "./bootstrap.js";
import { etcdArgs } from "./components.js";
import { InvalidFleetOptionError, LocalFleetError } from "./errors.js";
import { claimFleetDir, ensureWritableDir } from "./fleet-directory.js";
import { type FleetState, liveProcesses, type PlaneRecord, writeFleetState } from "./fleet-state.js";
import { etcdDir, userKubeconfigPath, writePlaneFiles } from "./plane-files.js";
import { clientFor, startPlane, startRecorded, waitReady } from "./plane-start.js";
import { assertPortFree, freePorts, LOOPBACK } from "./ports.js";
import { terminate } from "./processes.js";
import { ensureToolchain, type Toolchain } from "./toolchain.js";
import { mapSettled } from "../util/map-settled.js";

const MAX_TENANTS = 32;
// Planes started at once. Each start is a few CPU-seconds of kube-apiserver bootstrap; all 33 at once on a
// 2-core machine would share the CPU so thinly that every plane's readiness wait (timeoutMs) runs out together.
// In batches, each plane waits for at most this many others; fleets of up to 3 tenants start as before.
const PLANE_START_CONCURRENCY = 4;
const MANAGEMENT_PLANE = "management";
const tenantPlaneName = (i: number) => `tenant${i}`;

export interface FleetUpOptions {
  dir: string;
  tenants: number;
  /** Fixed port for the management plane's apiserver; random free port otherwise. */
  apiPort?: number;
  /** Fixed client port for the shared etcd. */
  etcdPort?: number;
  /** Extra kube-apiserver flags for every plane (feature gates, audit logging, ...). */
  apiserverArgs?: string[];
  /** Extra kube-controller-manager flags for every plane (benchmarks: its client's QPS and burst). */
  controllerManagerArgs?: string[];
  /** Per-step readiness timeout. */
  timeoutMs?: number;
  toolchain?: Toolchain;
  log?: (line: string) => void;
}

export interface FleetUpResult {
  dir: string;
  state: FleetState;
  durationMs: number;
}

function validateTenantCount(value: unknown): number {
  const n = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_TENANTS) {
    throw new InvalidFleetOptionError(
      `--tenants must be a whole number from 0 to ${MAX_TENANTS} (0 starts the management plane alone), got "${String(value)}"`,
    );
  }
  return n;
}

function validatePort(value: number | undefined, flag: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 65535)) {
    throw new InvalidFleetOptionError(`${flag} must be a port number from 1 to 65535, got "${value}"`);
  }
}

export async function upFleet(options: FleetUpOptions): Promise<FleetUpResult> {
  const started = Date.now();
  const tenants = validateTenantCount(options.tenants);
  validatePort(options.apiPort, "--api-port");
  validatePort(options.etcdPort, "--etcd-port");
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 120_000;
  const dir = ensureWritableDir(options.dir);
  const note = await claimFleetDir(dir);
  if (note) log(note);
  if (options.apiPort) await assertPortFree(options.apiPort, "--api-port");
  if (options.etcdPort) await assertPortFree(options.etcdPort, "--etcd-port");
  const toolchain = options.toolchain ?? (await ensureToolchain(["controlplane", "kwok"]));

  const planeNames = [MANAGEMENT_PLANE, ...Array.from({ length: tenants }, (_, i) => tenantPlaneName(i + 1))];
  const reserved = [options.apiPort, options.etcdPort].filter((p): p is number => p !== undefined);
  const ports = await freePorts(2 + planeNames.length * 2, reserved);
  const etcdPort = options.etcdPort ?? ports.pop()!;
  const etcdPeerPort = ports.pop()!;

  const state: FleetState = {
    formatVersion: 1,
    phase: "starting",
    ownerPid: process.pid,
    startedAt: new Date().toISOString(),
    kubernetesVersion: "",
    planes: [],
  };
  const save = () => writeFleetState(dir, state);
  save();

  try {
    log(`starting shared etcd on ${LOOPBACK}:${etcdPort}`);
    mkdirSync(etcdDir(dir), { recursive: true });
    const etcd = await startRecorded(
      { state, save },
      "etcd",
      "etcd",
      toolchain.kube,
      etcdArgs({ dataDir: `${etcdDir(dir)}/data`, clientPort: etcdPort, peerPort: etcdPeerPort }),
      `${etcdDir(dir)}/etcd.log`,
      etcdPort,
    );
    await waitReady("etcd", etcd, timeoutMs, () => isEtcdHealthy(etcdPort));

    const planes = planeNames.map((name, i) => {
      const port = i === 0 && options.apiPort ? options.apiPort : ports.pop()!;
      const files = writePlaneFiles(dir, name, port);
      const record: PlaneRecord = {
        name,
        role: i === 0 ? "management" : "tenant",
        port,
        kubeconfig: userKubeconfigPath(dir, name),
        superAdminKubeconfig: files.kubeconfigFile.superAdmin,
        processes: [],
      };
      state.planes.push(record);
      return { name, port, files, record, kwokPort: ports.pop()! };
    });
    save();
    log(`starting ${planes.length} control plane${planes.length > 1 ? "s" : ""}: ${planeNames.join(", ")}`);

    const ctx = {
      state,
      save,
      toolchain,
      etcdPort,
      timeoutMs,
      apiserverArgs: options.apiserverArgs,
      controllerManagerArgs: options.controllerManagerArgs,
    };
    const starts = await mapSettled(planes, PLANE_START_CONCURRENCY, (p) => startPlane(p, ctx));
    const failed = starts.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;

    const management = planes[0]!;
    if (planes.length > 1) {
      log(`registering ${planes.length - 1} tenant control plane(s) in namespace tenants of the management plane`);
      await registerTenants(
        clientFor(management.files, "superAdmin", management.name),
        planes.slice(1).map((p) => ({
          tenant: p.name,
          port: p.port,
          kubernetesVersion: state.kubernetesVersion,
          adminConf: p.files.kubeconfigText.admin,
          superAdminConf: p.files.kubeconfigText.superAdmin,
        })),
        timeoutMs,
      );
    }
    state.phase = "running";
    state.readyAt = new Date().toISOString();
    save();
    return { dir, state, durationMs: Date.now() - started };
  } catch (err) {
    await terminate(liveProcesses(state));
    // Kept (not removed) so the logs named in the error can be read; the next `up` clears it.
    state.phase = "failed";
    save();
    throw err instanceof LocalFleetError
      ? err
      : new LocalFleetError(`local fleet failed to start: ${(err as Error).message}`);
  }
}

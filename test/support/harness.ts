// The one starter the e2e harnesses are built on: what every one of them did by itself, in the same
// order — scratch namespaces on the shared management plane, CRDs applied and served, the real
// `flotilla controller` process started with flags and sharded to the test's objects, copies of tenant
// planes' kubeconfig Secrets — and one cleanup() that undoes it in reverse. Each harness file only adds
// what is special to it (a repository, a chart server, tenants, its own helpers).
import type { KubeObject } from "../../src/api/meta/object.js";
import type { Cluster } from "../../src/kube/cluster.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerOptions, type ControllerProcess, startController } from "./controller-process.js";
import { eventually, planeCluster, testNamespace } from "./fleet-context.js";

/** How long cleanup waits for a signalled controller before SIGKILL. */
const STOP_GRACE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

type Gvk = { group: string; version: string; kind: string };
type Crd = { spec: { group: string; names: { kind: string }; versions: { name: string; storage?: boolean }[] } };

export interface ControllerHarnessOptions extends Partial<Omit<ControllerOptions, "namespace">> {
  /** Which scratch namespace it runs in (--runtime-namespace; default the first). */
  in?: string;
  /** Its --storage-path is a fresh directory with this prefix (unless storagePath is given). */
  storagePrefix?: string;
  /** Kinds it installs itself (--install-crds) that the test needs served before it creates any. */
  serves?: Gvk[];
  /** At cleanup: SIGTERM (default) or SIGKILL, and whether cleanup waits for the exit (default: it does). */
  stopSignal?: NodeJS.Signals;
  awaitExit?: boolean;
}

export interface HarnessOptions<R extends string> {
  /**
   * Namespaces on the management plane by role: a prefix makes a scratch namespace that goes after the file's
   * tests; `{ existing }` is one the test made itself, used as it is.
   */
  namespaces: Record<R, string | { existing: string }>;
  /** CRDs as this code defines them, applied over whatever another version installed, and waited for until served. */
  crds?: KubeObject[];
  /** The real controller process; its shard defaults to the first namespace. */
  controller?: ControllerHarnessOptions;
}

export interface Harness<R extends string> {
  mgmt: Cluster;
  ns: Record<R, string>;
  /**
   * Starts the controller process (again, after a kill: same storage unless told otherwise); cleanup stops it
   * before anything set up earlier. `serves` is waited for by startHarness, not here.
   */
  startController(opts?: ControllerHarnessOptions): ControllerProcess;
  /** The controller process this harness started last. */
  readonly controller: ControllerProcess;
  /** The controller's --storage-path (artifacts, and the unpacked-artifact cache below it). */
  readonly storagePath: string;
  /** Copies tenant plane `tenant`'s admin kubeconfig Secret into `ns` (default name `<tenant>-admin-kubeconfig`, key admin.conf). */
  copyKubeconfig(tenant: string, ns: string, as?: { name?: string; key?: string }): Promise<string>;
  /** A cleanup step, run before the steps added earlier (setup undone in reverse). */
  onCleanup(step: () => Promise<unknown> | unknown): void;
  /** Runs the cleanup steps, newest first; a failing step does not keep the others from running. */
  cleanup(): Promise<void>;
}

const gvkOf = (crd: Crd): Gvk => {
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!;
  return { group: crd.spec.group, version: version.name, kind: crd.spec.names.kind };
};

/** Waits until the management plane serves `gvk` (a CRD just applied, or installed by a starting process). */
export async function waitServed(mgmt: Cluster, gvk: Gvk, timeoutMs = 60_000): Promise<void> {
  await eventually(
    `${gvk.kind}.${gvk.group}/${gvk.version} served`,
    () => mgmt.discovery.waitForMapping(gvk, 2_000).then(() => true),
    timeoutMs,
    500,
  );
}

/** Applies this code's CRDs (forced: a process of another version may have installed its own) and waits until served. */
export async function serveCrds(mgmt: Cluster, crds: KubeObject[]): Promise<void> {
  for (const crd of crds) await mgmt.apply(crd, "flotilla-test", { force: true });
  for (const crd of crds) await waitServed(mgmt, gvkOf(crd as unknown as Crd));
}

/**
 * Copies tenant plane `tenant`'s admin kubeconfig (the Kamaji-style Secret in `tenants`) into namespace
 * `into`, as `as.name` (default `<tenant>-admin-kubeconfig`) under key `as.key` (default admin.conf).
 */
export async function copyKubeconfig(
  mgmt: Cluster,
  tenant: string,
  into: string,
  as: { name?: string; key?: string } = {},
): Promise<string> {
  const secret = await mgmt.client.get<{ data: Record<string, string> }>(
    `/api/v1/namespaces/tenants/secrets/${tenant}-admin-kubeconfig`,
  );
  const name = as.name ?? `${tenant}-admin-kubeconfig`;
  await mgmt.client.create(`/api/v1/namespaces/${into}/secrets`, {
    metadata: { name },
    data: { [as.key ?? "admin.conf"]: secret.data["admin.conf"]! },
  });
  return name;
}

export async function startHarness<R extends string>(o: HarnessOptions<R>): Promise<Harness<R>> {
  const mgmt = planeCluster("management");
  const steps: (() => Promise<unknown> | unknown)[] = [];
  // The CRDs first: a controller's --install-crds would race the test's first objects on a fresh fleet.
  if (o.crds?.length) await serveCrds(mgmt, o.crds);
  const ns = {} as Record<R, string>;
  for (const [role, want] of Object.entries(o.namespaces) as [R, string | { existing: string }][])
    ns[role] = typeof want === "string" ? await testNamespace(mgmt.client, want) : want.existing;
  const first = Object.values<string>(ns)[0]!;

  let controller: ControllerProcess | undefined;
  let storagePath: string | undefined;
  const start = (opts: ControllerHarnessOptions = {}): ControllerProcess => {
    const { in: role, storagePrefix, serves: _s, stopSignal = "SIGTERM", awaitExit = true, ...flags } = opts;
    if (role !== undefined && !(role in ns))
      throw new Error(`controller.in: ${role} is not one of this harness's namespaces (${Object.keys(ns).join(", ")})`);
    storagePath = flags.storagePath ?? storagePath ?? makeWorkDir(`flotilla-${storagePrefix ?? "harness"}-`);
    const started = startController({
      ...flags,
      namespace: role ? ns[role as R] : first,
      shard: flags.shard ?? first,
      storagePath,
    });
    controller = started;
    steps.push(async () => {
      if (started.child.exitCode !== null || started.child.signalCode !== null) return; // a test killed it
      started.child.kill(stopSignal);
      if (!awaitExit) return;
      // Bounded: a process that does not go within STOP_GRACE_MS is killed.
      const gone = await Promise.race([started.exited().then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
      if (!gone) started.child.kill("SIGKILL");
    });
    return started;
  };
  if (o.controller) {
    start(o.controller);
    for (const gvk of o.controller.serves ?? []) await waitServed(mgmt, gvk);
  }

  return {
    mgmt,
    ns,
    startController: start,
    get controller() {
      if (!controller) throw new Error("this harness started no controller: pass `controller` to startHarness");
      return controller;
    },
    get storagePath() {
      if (!storagePath) throw new Error("this harness started no controller, so it has no storage path");
      return storagePath;
    },
    copyKubeconfig: (tenant, into, as) => copyKubeconfig(mgmt, tenant, into, as),
    onCleanup: (step) => void steps.push(step),
    async cleanup() {
      const failures: unknown[] = [];
      for (const step of steps.splice(0).reverse()) await Promise.resolve(step()).catch((err) => failures.push(err));
      if (failures.length) throw failures[0];
    },
  };
}

// A management-plane run of `flotilla bootstrap git`: this run's stand-in for flux-system (the fleet is
// shared), a platform repository on a loopback git server that takes pushes with credentials, and the
// real controller process sharded to the namespace (every Flux object the test makes carries the shard
// label). Cleanup stops the controller first and leaves the Kustomizations suspended and unpruned, so
// nothing ever prunes what bootstrap applied cluster-wide (the CRDs).
import { randomBytes } from "node:crypto";
import { afterAll, expect } from "vitest";
import { type CliResult, runCli } from "./cli.js";
import type { ControllerProcess } from "./controller-process.js";
import { plane, planeCluster } from "./fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "./git-http-server.js";
import type { GitRepoHandle } from "./git-repository.js";
import { startHarness } from "./harness.js";

export interface BootstrapEnv {
  ns: string;
  /** `--label=flotilla.dev/shard=<ns>`, for every Flux object the test creates. */
  shard: string;
  fleet: GitRepoHandle;
  credentials: { username: string; password: string };
  controller: ControllerProcess;
  /** `flotilla <args> --kubeconfig <management>`. */
  cli(args: string[], timeoutMs?: number): Promise<CliResult>;
  /** The same, expecting exit 0; returns stdout (what a shell would redirect into a file). */
  ok(args: string[]): Promise<string>;
  bootstrap(path: string): Promise<CliResult>;
  /** Kustomizations (namespace, name) cleanup leaves suspended. */
  kustomizations: [string, string][];
}

export async function startBootstrapEnv(prefix: string): Promise<BootstrapEnv> {
  const mgmt = planeCluster("management");
  const ns = `${prefix}-${randomBytes(3).toString("hex")}`;
  await mgmt.client.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  // Kept after the run (not a scratch namespace): deleting it would take what bootstrap applied with it.
  const h = await startHarness({ namespaces: { flux: { existing: ns } } });
  const credentials = { username: "platform-admin", password: `pat-${randomBytes(8).toString("hex")}` };
  const server: GitHttpServer = await startGitHttpServer({ auth: credentials });
  h.onCleanup(() => server.close());
  const fleet = await server.createRepo("fleet");
  const kustomizations: [string, string][] = [[ns, "flux-system"]];
  h.onCleanup(() => suspendUnpruned(kustomizations));
  // Stopped first at cleanup (SIGKILL, its exit awaited), before its Kustomizations are suspended.
  const controller = h.startController({ storagePrefix: prefix, stopSignal: "SIGKILL" });
  const shard = `--label=flotilla.dev/shard=${ns}`;
  const cli = (args: string[], timeoutMs = 300_000) =>
    runCli([...args, "--kubeconfig", plane("management").kubeconfig], { timeoutMs });
  const env: BootstrapEnv = {
    ns,
    shard,
    fleet,
    credentials,
    controller,
    cli,
    async ok(args) {
      const r = await cli(args);
      expect(r.code, `flotilla ${args.join(" ")}\n${r.stderr}`).toBe(0);
      return r.stdout;
    },
    bootstrap: (path) =>
      cli([
        "bootstrap",
        "git",
        `--url=${fleet.url}`,
        "--allow-insecure-http",
        "--branch=main",
        `--path=${path}`,
        `--username=${credentials.username}`,
        `--password=${credentials.password}`,
        `-n=${ns}`,
        shard,
      ]),
    kustomizations,
  };
  afterAll(() => h.cleanup());
  return env;
}

/**
 * The end of a bootstrap test: its controller stopped first, then its Kustomizations suspended and unpruned,
 * so that nothing — a later test's controller, a namespace deletion — prunes what bootstrap applied
 * cluster-wide (the CRDs every other test uses).
 */
export async function leaveBootstrapped(
  controller: ControllerProcess,
  kustomizations: [string, string][],
): Promise<void> {
  controller.child.kill("SIGKILL");
  await controller.exited();
  await suspendUnpruned(kustomizations);
}

/** Kustomizations (namespace, name) suspended with prune off: nothing applies or prunes through them any more. */
async function suspendUnpruned(kustomizations: [string, string][]): Promise<void> {
  for (const [namespace, name] of kustomizations)
    await planeCluster("management")
      .client.patch(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${namespace}/kustomizations/${name}`, "merge", {
        spec: { suspend: true, prune: false },
      })
      .catch(() => {});
}

// A local OCI registry: the CNCF distribution registry (built by tools/build.sh from Go modules) on
// 127.0.0.1, plain HTTP, storing in a directory of its own. The demo serves its add-on chart from it the
// way Flux's example repository does now (an OCIRepository + HelmRelease chartRef).
//
//   const reg = await startLocalRegistry(dir);   // reg.host → 127.0.0.1:PORT, reg.url → oci://127.0.0.1:PORT
//   await reg.stop();
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolsDir } from "../binaries/tools-dir.js";
import { ToolchainError, LocalFleetError } from "./errors.js";
import { freePort, LOOPBACK } from "./ports.js";

export interface LocalRegistry {
  host: string;
  url: string;
  stop(): Promise<void>;
}

export class RegistryStartError extends LocalFleetError {}

const config = (dir: string, port: number) =>
  [
    "version: 0.1",
    "log:",
    "  level: warn",
    "  accesslog:",
    "    disabled: true",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${join(dir, "data")}`,
    "http:",
    `  addr: ${LOOPBACK}:${port}`,
    `  secret: local-${port}`,
    "",
  ].join("\n");

async function ready(child: ChildProcess, host: string, stderr: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new RegistryStartError(`the OCI registry exited (${child.exitCode}) before it served: ${stderr().trim()}`);
    const ok = await fetch(`http://${host}/v2/`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new RegistryStartError(`the OCI registry did not serve http://${host}/v2/ within ${timeoutMs / 1000} s`);
}

export async function startLocalRegistry(dir: string, timeoutMs = 30_000): Promise<LocalRegistry> {
  const bin = join(toolsDir(), "bin", "registry");
  if (!existsSync(bin))
    throw new ToolchainError(`the OCI registry is not built (${bin} is missing): run \`bash tools/build.sh registry\``);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const file = join(dir, "config.yml");
  writeFileSync(file, config(dir, port));
  // No OpenTelemetry exporter: the registry would otherwise try to reach a collector.
  const child = spawn(bin, ["serve", file], {
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      OTEL_TRACES_EXPORTER: "none",
      OTEL_SDK_DISABLED: "true",
    },
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const host = `${LOOPBACK}:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  try {
    await ready(child, host, () => stderr, timeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { host, url: `oci://${host}`, stop };
}

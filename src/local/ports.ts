// Ports on 127.0.0.1 only: the local fleet never listens on other interfaces.
//
// A port handed to another process (etcd, kube-apiserver, kwok, a registry) is free when picked and
// bound seconds later. Two things can take it meanwhile: an outgoing connection's source port, which
// the kernel draws from its ephemeral range, and another fleet or test on the machine picking the
// same port. So ports are drawn below the ephemeral range, and each pick is claimed for a while in a
// file every flotilla process on the machine checks (CI's failure: kwok's port, 36619, was in the
// ephemeral range and "already in use" when kwok started).
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PortInUseError } from "./errors.js";

export const LOOPBACK = "127.0.0.1";

/** How long a picked port stays claimed: by then its process has bound it (or given up). */
const CLAIM_MS = 120_000;
const LOWEST = 10_000;

function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(undefined));
    server.listen({ port, host: LOOPBACK, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** The lowest port of the kernel's ephemeral range (Linux), or undefined where it cannot be read. */
export function ephemeralLow(rangeFile = "/proc/sys/net/ipv4/ip_local_port_range"): number | undefined {
  try {
    const low = Number(readFileSync(rangeFile, "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : undefined;
  } catch {
    return undefined;
  }
}

/** Claims `port` for this process unless another process claimed it within CLAIM_MS. */
export function claimPort(port: number, dir = join(tmpdir(), "flotilla-port-claims"), now = Date.now()): boolean {
  const file = join(dir, String(port));
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return true; // no shared claims here: the bind check still holds
  }
  try {
    if (now - statSync(file).mtimeMs < CLAIM_MS) return false;
    writeFileSync(file, String(process.pid));
    return true;
  } catch {
    return true;
  }
}

/**
 * A port that is free right now, below the ephemeral range and claimed for this process where possible.
 * `below`: the range's low end, when the caller has read it already.
 */
export async function freePort(below = ephemeralLow()): Promise<number> {
  if (below !== undefined && below > LOWEST + 1000) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
      if (claimPort(port) && (await listenOnce(port)) === port) return port;
    }
  }
  const port = await listenOnce(0);
  if (!port) throw new Error("could not find a free port on 127.0.0.1");
  return port;
}

async function isPortFree(port: number): Promise<boolean> {
  return (await listenOnce(port)) === port;
}

/** Throws PortInUseError (naming the flag the user can change) when a requested port is taken. */
export async function assertPortFree(port: number, flag: string): Promise<void> {
  if (!(await isPortFree(port))) throw new PortInUseError(port, flag);
}

/** Free, distinct ports; `reserved` ports (user-requested) are never handed out. */
export async function freePorts(count: number, reserved: number[] = []): Promise<number[]> {
  const out: number[] = [];
  const below = ephemeralLow();
  while (out.length < count) {
    const port = await freePort(below);
    if (!out.includes(port) && !reserved.includes(port)) out.push(port);
  }
  return out;
}

// Ports on 127.0.0.1 only: the local fleet never listens on other interfaces.
import { createServer } from "node:net";
import { PortInUseError } from "./errors.js";

export const LOOPBACK = "127.0.0.1";

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

/** A port the kernel says is free right now (it may be taken again before use; callers retry). */
export async function freePort(): Promise<number> {
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
  while (out.length < count) {
    const port = await freePort();
    if (!out.includes(port) && !reserved.includes(port)) out.push(port);
  }
  return out;
}

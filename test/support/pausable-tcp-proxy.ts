// A TCP proxy on loopback in front of a real server (a kube-apiserver: TLS passes through untouched)
// that can stop answering: paused, it keeps every connection open and forwards nothing either way —
// a cluster whose network went quiet, not one that refuses connections.
import { createConnection, createServer, type Socket } from "node:net";

export interface PausableTcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Bytes clients sent since the pause, dropped (evidence a request reached the silent cluster). */
  readonly held: number;
  pause(): void;
  close(): Promise<void>;
}

export async function startPausableTcpProxy(targetPort: number): Promise<PausableTcpProxy> {
  let paused = false;
  let held = 0;
  const forward = (to: Socket, fromClient: boolean) => (d: Buffer) => {
    if (!paused) to.write(d);
    else if (fromClient) held += d.length;
  };
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("error", () => {});
    s.once("close", () => sockets.delete(s));
  };
  const server = createServer((client) => {
    const upstream = createConnection({ port: targetPort, host: "127.0.0.1" });
    track(client);
    track(upstream);
    // Bytes read while paused are dropped: nothing reaches the other side any more.
    client.on("data", forward(upstream, true));
    upstream.on("data", forward(client, false));
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    port: (server.address() as { port: number }).port,
    get held() {
      return held;
    },
    pause: () => (paused = true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

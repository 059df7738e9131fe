// A server that accepts connections and never answers: a git (or chart) server a hostile tenant points
// its objects at so that every client waits as long as its timeout lets it. It counts the connections it
// holds; close() drops them.
import { createServer, type Socket } from "node:net";

export interface StallingServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** Connections open right now (each one a client stuck waiting). */
  readonly open: number;
  close(): Promise<void>;
}

export async function startStallingServer(): Promise<StallingServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => sockets.delete(socket));
    socket.resume(); // read the request, answer nothing
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get open() {
      return sockets.size;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

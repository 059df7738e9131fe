// A test server's outage: it stops listening (clients get "connection refused", as from a host that
// is down) and later listens again on the same port, so the URLs in the objects under test stay valid.
import type { Server } from "node:http";

export async function stopListening(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
}

export async function listenAgain(server: Server, port: number): Promise<void> {
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", fail);
      ok();
    });
  });
}

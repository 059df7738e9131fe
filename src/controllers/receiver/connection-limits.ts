// What one sender can hold of the webhook receiver. The server is reachable by anyone who can reach the
// Service (often the internet, for GitHub), so a sender opening sockets and never finishing their
// headers (slowloris) or sending 3 MiB bodies over many connections must not starve real webhooks:
// at most `connections` sockets in all (Node's maxConnections closes the next at once), at most
// `connectionsPerAddress` from one remote address (the next is closed at once, others keep theirs),
// and at most `requestsInFlight` requests read and handled together (the next is 503 unread).
// Flux's notification-controller has only the header and request timeouts; these caps are flotilla's.
import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface ReceiverLimits {
  connections: number;
  connectionsPerAddress: number;
  requestsInFlight: number;
}

export const RECEIVER_LIMITS: ReceiverLimits = {
  connections: 256,
  // Behind an Ingress every request comes from the Ingress's address: enough for its keep-alive pool.
  connectionsPerAddress: 32,
  // 32 bodies of at most 3 MiB: the server holds at most ~100 MiB of request bodies at once.
  requestsInFlight: 32,
};

/** Applies the connection caps to `server`; returns how many sockets each cap has closed so far. */
export function capConnections(server: Server, limits: ReceiverLimits): { refused: () => number } {
  server.maxConnections = limits.connections;
  let refused = 0;
  server.on("drop", () => refused++);
  const perAddress = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const open = perAddress.get(address) ?? 0;
    if (open >= limits.connectionsPerAddress) {
      refused++;
      socket.destroy();
      return;
    }
    perAddress.set(address, open + 1);
    socket.once("close", () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return { refused: () => refused };
}

/** A counter of requests being read or handled, refusing past its limit. */
export class InFlight {
  private count = 0;
  constructor(private readonly limit: number) {}

  /** A release function when there is room (call it once the request is answered), else undefined. */
  enter(): (() => void) | undefined {
    if (this.count >= this.limit) return undefined;
    this.count++;
    let released = false;
    return () => {
      if (!released) this.count--;
      released = true;
    };
  }
}

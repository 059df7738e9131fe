// The webhook receiver of the real `flotilla controller` under a hostile sender and a hostile Receiver
// author (decision 0032). A 3 MiB request for a path no Receiver has is answered 404 before a byte of its
// body is sent; a sender holding slow connections past its cap has the extra ones closed at once while a
// real webhook from elsewhere still annotates its GitRepository; a Receiver naming another namespace's
// GitRepository is Stalled (AccessDenied) and that object is never annotated, while a Receiver asking
// its own namespace still works. Other loopback addresses (127.0.0.2) stand for other hosts.
import { createHash, randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";

const client = planeCluster("management").client;
const TOKEN = randomBytes(24).toString("hex");
const PER_ADDRESS = 32; // RECEIVER_LIMITS.connectionsPerAddress
const REQUESTED_AT = "reconcile.fluxcd.io/requestedAt";

type Condition = { type: string; status: string; reason: string; message: string };
type Obj = {
  metadata: { generation: number; resourceVersion: string; annotations?: Record<string, string> };
  status?: { conditions?: Condition[]; observedGeneration?: number; webhookPath?: string };
};

let ns: string;
let other: string;
let controller: ControllerProcess;
let hookBase: string;
let ownPath: string;

const receivers = (n = ns) => `/apis/notification.toolkit.fluxcd.io/v1/namespaces/${n}/receivers`;
const gitRepo = (n: string, name: string) =>
  `/apis/source.toolkit.fluxcd.io/v1/namespaces/${n}/gitrepositories/${name}`;
const stamp = async (n: string, name: string) =>
  (await client.get<Obj>(gitRepo(n, name))).metadata.annotations?.[REQUESTED_AT];
const ready = (o: Obj) => o.status?.conditions?.find((c) => c.type === "Ready");

async function createReceiver(name: string, resources: Record<string, unknown>[]) {
  await client.create(receivers(), {
    apiVersion: "notification.toolkit.fluxcd.io/v1",
    kind: "Receiver",
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns } },
    spec: { type: "generic", secretRef: { name: "webhook-token" }, resources },
  });
  return eventually(
    `Receiver ${name} reconciled`,
    async () => {
      const r = await client.get<Obj>(`${receivers()}/${name}`);
      return r.status?.observedGeneration === r.metadata.generation && ready(r) ? r : undefined;
    },
    60_000,
  );
}

async function createGitRepository(namespace: string, name: string) {
  // Suspended: nothing fetches it; only a Receiver's annotation can change it.
  await client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${namespace}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name, namespace, labels: { "flotilla.dev/shard": ns, team: "b" } },
    spec: { url: "http://127.0.0.1:1/none.git", interval: "1h", suspend: true, ref: { branch: "main" } },
  });
}

/** A real webhook: the generic Receiver's path, from 127.0.0.1; resolves with the status. */
const webhook = async (path = ownPath) => (await fetch(hookBase + path, { method: "POST", body: "{}" })).status;

interface Raw {
  socket: Socket;
  data: () => string;
  /** Resolves true once the server closed the socket, false after `ms`. */
  closed: (ms: number) => Promise<boolean>;
}

function open(text: string, localAddress = "127.0.0.1"): Promise<Raw> {
  const url = new URL(hookBase);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), localAddress });
    let data = "";
    let isClosed = false;
    const closed = new Promise<void>((r) => socket.once("close", () => ((isClosed = true), r())));
    socket.on("data", (d: Buffer) => (data += d.toString()));
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      socket.on("error", () => {});
      socket.write(text);
      resolve({
        socket,
        data: () => data,
        closed: async (ms) => (await Promise.race([closed, new Promise((r) => setTimeout(r, ms))]), isClosed),
      });
    });
  });
}

beforeAll(async () => {
  ns = await testNamespace(client, "hostile-rcv");
  other = await testNamespace(client, "hostile-rcv-other");
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-hostile-rcv-") });
  await eventually("the Receiver CRD served", () => client.get(receivers()).then(() => true), 60_000);
  await client.create(`/api/v1/namespaces/${ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "webhook-token", namespace: ns },
    stringData: { token: TOKEN },
  });
  await createGitRepository(ns, "app");
  await createGitRepository(other, "theirs");
  const own = await createReceiver("own", [{ kind: "GitRepository", name: "app" }]);
  expect(ready(own)?.status).toBe("True");
  ownPath = own.status!.webhookPath!;
  hookBase = await controller.receiverUrl();
}, 180_000);

describe("the webhook receiver under a hostile sender", () => {
  it("answers 404 to a 3 MiB request for a path no Receiver has before a byte of its body is sent, and closes", async () => {
    const started = performance.now();
    const length = 3 * 1024 * 1024;
    const raw = await open(
      `POST /hook/${"0".repeat(64)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
    );
    const answered = await eventually("an answer", async () => raw.data() || undefined, 10_000, 10);
    const ms = performance.now() - started;
    expect(answered).toMatch(/^HTTP\/1\.1 404 /);
    expect(answered).toMatch(/connection: close/i);
    expect(await raw.closed(5_000)).toBe(true);
    process.stdout.write(
      `[hostile-receiver] 3 MiB to an unknown path: 404 after 0 of ${length} body bytes, ${ms.toFixed(0)} ms\n`,
    );
    expect(await webhook()).toBe(200);
  });

  it("closes a sender's connections past its cap at once, while a real webhook from another address still annotates", async () => {
    const slow = `POST /hook/${"0".repeat(64)} HTTP/1.1\r\nHost: x\r\n`; // headers never finished
    const held: Raw[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) held.push(await open(slow, "127.0.0.2"));
    const heldAt = performance.now();
    const extra: Raw[] = [];
    for (let i = 0; i < 8; i++) extra.push(await open(slow, "127.0.0.2"));
    const extraClosed = await Promise.all(extra.map((r) => r.closed(3_000)));
    expect(extraClosed.filter(Boolean)).toHaveLength(8);
    expect(extra.every((r) => r.data() === "")).toBe(true);
    expect((await Promise.all(held.map((r) => r.closed(0)))).filter(Boolean)).toHaveLength(0);

    const before = await stamp(ns, "app");
    expect(await webhook()).toBe(200);
    const after = await stamp(ns, "app");
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    // The held ones are dropped by the header timeout (10 s), not kept for ever.
    const heldClosed = await Promise.all(held.map((r) => r.closed(30_000)));
    expect(heldClosed.every(Boolean)).toBe(true);
    const s = (performance.now() - heldAt) / 1000;
    process.stdout.write(
      `[hostile-receiver] ${PER_ADDRESS} slow connections held, 8 more closed at once, real webhook 200; held ones closed after ${s.toFixed(1)} s\n`,
    );
    expect(s).toBeLessThan(20);
  });
});

describe("a Receiver naming another namespace", () => {
  it("is Stalled (AccessDenied) naming the entry, and the other namespace's GitRepository is never annotated", async () => {
    const r = await createReceiver("reach", [{ kind: "GitRepository", name: "theirs", namespace: other }]);
    expect(ready(r)).toMatchObject({
      status: "False",
      reason: "AccessDenied",
      message: `spec.resources[0] names GitRepository "${other}/theirs" in another namespace: a Receiver may only ask objects in its own namespace "${ns}" to reconcile (the controller allows it only with --receiver-allow-cross-namespace)`,
    });
    expect(r.status!.conditions!.find((c) => c.type === "Stalled")?.status).toBe("True");
    // Its path (sha256(token + name + namespace)) is not served.
    const path = `/hook/${createHash("sha256").update(`${TOKEN}reach${ns}`).digest("hex")}`;
    expect(await webhook(path)).not.toBe(200);
    // A wildcard with a CEL filter probing the other namespace's labels is refused the same way.
    const probe = await createReceiver("probe", [
      { kind: "GitRepository", name: "*", namespace: other, matchLabels: { team: "b" }, filter: "true" },
    ]);
    expect(ready(probe)?.reason).toBe("AccessDenied");

    // Positive evidence the server is working: the own-namespace Receiver still annotates, after the refusals.
    const before = await stamp(ns, "app");
    expect(await webhook()).toBe(200);
    expect(await stamp(ns, "app")).not.toBe(before);
    expect(await stamp(other, "theirs")).toBeUndefined();
  });
});

// Alerts on a sharded install, as Flux runs them: notification-controller is not sharded, so the main
// process (!<key>) takes Alerts and Providers whatever their shard key, and each shard process
// (--events-addr=<URL>, as Flux's shard controllers run) posts its events to the main process's event
// endpoint. One Alert without a shard label hears the objects of both shards. Real processes against
// the shared management plane; every selector also carries flotilla.dev/shard=<ns>, keeping these
// processes to this test's objects.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";

const client = planeCluster("management").client;
const NC = "notification.toolkit.fluxcd.io/v1beta3";
const KEY = "sharding.fluxcd.io/key";
const SHARDS = ["a", "b"];

type Event = { involvedObject: { kind: string; name: string }; reportingController: string };
let ns: string;
let git: GitHttpServer;
let hook: Server;
const received: Event[] = [];
const processes: ControllerProcess[] = [];
let main: ControllerProcess;
let shards: ControllerProcess[];

const labels = (shard?: string) => ({ "flotilla.dev/shard": ns, ...(shard ? { [KEY]: shard } : {}) });
async function create(plural: string, apiVersion: string, kind: string, name: string, body: object, shard?: string) {
  await client.create(`/apis/${apiVersion}/namespaces/${ns}/${plural}`, {
    apiVersion,
    kind,
    metadata: { name, namespace: ns, labels: labels(shard) },
    ...body,
  });
}

beforeAll(async () => {
  ns = await testNamespace(client, "notify-shards");
  git = await startGitHttpServer();
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/`;
  main = startController({
    namespace: ns,
    shard: ns,
    storagePath: makeWorkDir("flotilla-notify-main-"),
    extraArgs: ["--watch-label-selector", `flotilla.dev/shard=${ns},!${KEY}`],
  });
  processes.push(main);
  const eventsUrl = await main.eventsUrl();
  shards = SHARDS.map((s) =>
    startController({
      namespace: ns,
      shard: ns,
      storagePath: makeWorkDir(`flotilla-notify-${s}-`),
      extraArgs: [
        "--watch-label-selector",
        `flotilla.dev/shard=${ns},${KEY} in (${s})`,
        "--events-addr",
        `${eventsUrl}/`,
      ],
    }),
  );
  processes.push(...shards);
  // The Provider carries shard a's key: the main process takes it all the same (not sharded).
  await create("providers", NC, "Provider", "hook", { spec: { type: "generic", address: hookUrl } }, "a");
  await create("alerts", NC, "Alert", "all", {
    spec: { providerRef: { name: "hook" }, eventSources: [{ kind: "GitRepository", name: "*" }] },
  });
  await eventually(
    "the Alert and its shard-labelled Provider Ready (the main process's)",
    async () => {
      const ready = async (plural: string, name: string) =>
        (
          await client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
            `/apis/${NC}/namespaces/${ns}/${plural}/${name}`,
          )
        ).status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
      return (await ready("alerts", "all")) && (await ready("providers", "hook"));
    },
    120_000,
  );
  const repo = await git.createRepo(`notify-shards-${ns}`);
  await repo.commit({ "a.yaml": "a: 1\n" }, "one");
  for (const s of SHARDS)
    await create(
      "gitrepositories",
      "source.toolkit.fluxcd.io/v1",
      "GitRepository",
      `repo-${s}`,
      { spec: { url: repo.url, interval: "1h", ref: { branch: "main" } } },
      s,
    );
}, 240_000);

afterAll(async () => {
  for (const p of processes) p.child.kill("SIGTERM");
  await Promise.all(processes.map((p) => p.exited()));
  await git?.close();
  hook?.closeAllConnections();
  await new Promise<void>((r) => (hook ? hook.close(() => r()) : r()));
});

describe("Alerts on a sharded install (notification kinds are not sharded, as in Flux)", () => {
  it("delivers the events of both shards' objects through one Alert without a shard label", async () => {
    await eventually(
      "events of repo-a and repo-b at the webhook",
      async () => SHARDS.every((s) => received.some((e) => e.involvedObject.name === `repo-${s}`)) || undefined,
      150_000,
    );
    const from = (name: string) => received.find((e) => e.involvedObject.name === name)!;
    expect(from("repo-a").reportingController).toBe("source-controller");
    expect(from("repo-b").involvedObject.kind).toBe("GitRepository");
  });

  it("runs no Alerts, Providers or Receivers in a shard, which posts its events to the main process", async () => {
    for (const s of shards) {
      const started = await eventually("the shard's start line", async () =>
        s.logs.find((l) => l.msg === "controllers started"),
      );
      expect(started.eventsForwardedTo).toBe(`${await main.eventsUrl()}/`);
      expect(started.receiverServer).toBeUndefined();
      expect(started.eventServer).toBeUndefined();
    }
    expect(main.logs.find((l) => l.msg === "controllers started")!.receiverServer).toBeDefined();
  });
});

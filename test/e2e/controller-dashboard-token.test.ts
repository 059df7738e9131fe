// `flotilla controller --dashboard-addr` acts as the controller's identity, so (decision 0032): given
// --dashboard-token-file, every request without the token is 401 and with it (header or the session
// cookie /?token= sets) served; beyond loopback the controller refuses to start without a token, saying
// why; at most 32 event streams are open at once, the next refused (503) while pages still answer.
import { writeFileSync } from "node:fs";
import { request, type ClientRequest, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";

const MAX_STREAMS = 32; // change-stream.ts
const TOKEN = `dash-${"7f3a9c".repeat(6)}`;
let ns: string;
let work: string;
let controller: ControllerProcess;
let url: string;

const bearer = { authorization: `Bearer ${TOKEN}` };

/** A GET, resolved once its status arrives (the body left open: an event stream never ends). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ res: IncomingMessage; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { headers, agent: false }, (res) => resolve({ res, req }));
    req.once("error", reject);
    req.end();
  });
}

async function text(res: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of res) body += (chunk as Buffer).toString();
  return body;
}

beforeAll(async () => {
  ns = await testNamespace(planeCluster("management").client, "dash-token");
  work = makeWorkDir("flotilla-dash-token-");
  writeFileSync(join(work, "token"), `${TOKEN}\n`);
  // Sharded to nothing: this controller reconciles none of the file's objects, it only serves the page.
  controller = startController({
    namespace: ns,
    shard: `nothing-${ns}`,
    storagePath: join(work, "storage"),
    extraArgs: [
      "--dashboard-addr",
      "127.0.0.1:0",
      "--dashboard-token-file",
      join(work, "token"),
      "--kamaji-discovery",
      "false",
    ],
  });
  url = await eventually(
    "the controller's dashboard",
    async () => controller.logs.find((l) => l.msg === "dashboard serving")?.url as string | undefined,
    90_000,
  );
}, 120_000);

describe("the controller's dashboard with a token", () => {
  it("answers 401 without the token, serves with it (bearer or the session cookie), and never logs it", async () => {
    for (const path of ["/", "/assets/app.js", "/api/fleet", "/api/stream"]) {
      const { res } = await get(path);
      expect([path, res.statusCode]).toEqual([path, 401]);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="flotilla-dashboard"');
      expect(await text(res)).toContain("this dashboard needs its token");
    }
    expect((await get("/api/fleet", { authorization: "Bearer not-the-token" })).res.statusCode).toBe(401);

    const fleet = (await get("/api/fleet", bearer)).res;
    expect(fleet.statusCode).toBe(200);
    expect(JSON.parse(await text(fleet))).toMatchObject({ readOnly: true });

    const login = (await get(`/?token=${TOKEN}`)).res;
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe("/");
    const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
    expect(cookie).not.toContain(TOKEN);
    const page = (await get("/", { cookie })).res;
    expect(page.statusCode).toBe(200);
    expect(await text(page)).toContain("<html");
    expect((await get(`/?token=wrong-${TOKEN}`)).res.statusCode).toBe(401);

    expect(JSON.stringify(controller.logs)).not.toContain(TOKEN);
    expect(controller.logs.find((l) => l.msg === "dashboard serving")).toMatchObject({ token: "required" });
  });

  it(`opens at most ${MAX_STREAMS} event streams: the next is 503 while pages answer, and a closed one frees its place`, async () => {
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS }, () => get("/api/stream", bearer)));
    expect(streams.map((s) => s.res.statusCode)).toEqual(Array(MAX_STREAMS).fill(200));
    const refused = (await get("/api/stream", bearer)).res;
    expect(refused.statusCode).toBe(503);
    expect(JSON.parse(await text(refused)).error).toBe(
      `${MAX_STREAMS} event streams are open, the most this dashboard serves: close a dashboard tab`,
    );
    expect((await get("/api/fleet", bearer)).res.statusCode).toBe(200);

    streams[0]!.req.destroy();
    const again = await eventually(
      "a stream once one closed",
      async () => {
        const s = await get("/api/stream", bearer);
        if (s.res.statusCode === 200) return s;
        s.req.destroy();
        return undefined;
      },
      10_000,
    );
    for (const s of [...streams, again]) s.req.destroy();
  });
});

describe("the controller's dashboard beyond loopback", () => {
  it("refuses to start without a token, saying why and how, before serving anything", async () => {
    const refused = startController({
      namespace: ns,
      shard: `nothing-${ns}`,
      storagePath: join(work, "storage-refused"),
      extraArgs: ["--dashboard-addr", ":0", "--kamaji-discovery", "false"],
    });
    await refused.exited();
    expect(refused.child.exitCode).not.toBe(0);
    const said = refused.logs.map((l) => String(l.msg)).join("\n");
    expect(said).toContain(
      "--dashboard-addr :0 listens beyond loopback, where anyone who reaches it reads the fleet as the controller's identity: give --dashboard-token-file <file> (a bearer token of at least 16 characters), or bind 127.0.0.1",
    );
    expect(refused.logs.some((l) => l.msg === "dashboard serving")).toBe(false);
  });
});

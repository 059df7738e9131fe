// The four forges' commit-status exchange against a loopback server that answers as their APIs
// document: the duplicate check (GET) first, then the status (POST) — or nothing when the same status
// is there — with each request's method, path, headers and JSON body asserted.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FluxEvent } from "../../runtime/flux-event.js";
import { bitbucket } from "./providers/bitbucket.js";
import { sha1Hex } from "./providers/forge.js";
import { gitea } from "./providers/gitea.js";
import { github } from "./providers/github.js";
import { gitlab } from "./providers/gitlab.js";
import type { ProviderBuilder, ProviderSettings } from "./providers/types.js";
import { send } from "./send.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const UID = "5f3e9a1c-0000-4000-8000-000000000000";
const KEY = "kustomization/app/5f3e9a1c";
const event: FluxEvent = {
  involvedObject: { kind: "Kustomization", namespace: "apps", name: "app" },
  severity: "info",
  timestamp: "2026-11-27T00:00:00Z",
  message: "Reconciliation finished in 1s, next run in 10m0s",
  reason: "ReconciliationSucceeded",
  metadata: { revision: `main@sha1:${SHA}`, commit_status: "update" },
  reportingController: "kustomize-controller",
};

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}
let server: Server;
let base = "";
let seen: Seen[] = [];
/** What the GET answers: the statuses already on the commit, or a 404. */
let existing: { status: number; body: string } = { status: 200, body: "[]" };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      if (req.method === "GET")
        res.writeHead(existing.status, { "Content-Type": "application/json" }).end(existing.body);
      else res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.BITBUCKET_API_BASE_URL = `${base}/2.0`;
});
afterAll(async () => {
  delete process.env.BITBUCKET_API_BASE_URL;
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen = [];
  existing = { status: 200, body: "[]" };
});

async function deliver(build: ProviderBuilder, s: Omit<ProviderSettings, "providerUid">) {
  const req = build(event, { ...s, providerUid: UID });
  // The token is masked as resolveProvider arranges it.
  await send(req!, { timeoutMs: 10_000, retryMax: 0, secrets: [s.token!] });
}

describe("commit statuses against the forges' documented request/response contract (loopback)", () => {
  it("github (Enterprise API path): lists the commit's statuses, then creates one with Flux's context", async () => {
    await deliver(github, { address: `${base}/org/app.git`, token: "ghp_t0k3n" });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v3/repos/org/app/commits/${SHA}/statuses?per_page=50`,
      `POST /api/v3/repos/org/app/statuses/${SHA}`,
    ]);
    expect(seen[1]!.headers).toMatchObject({
      authorization: "Bearer ghp_t0k3n",
      accept: "application/vnd.github.v3+json",
      "content-type": "application/json",
    });
    expect(JSON.parse(seen[1]!.body)).toEqual({
      state: "success",
      description: "reconciliation succeeded",
      context: KEY,
    });
    // The same status already there: only the GET.
    seen = [];
    existing = {
      status: 200,
      body: JSON.stringify([{ context: KEY, state: "success", description: "reconciliation succeeded" }]),
    };
    await deliver(github, { address: `${base}/org/app.git`, token: "ghp_t0k3n" });
    expect(seen.map((r) => r.method)).toEqual(["GET"]);
  });

  it("gitlab: lists by name, then sets the status on the escaped project", async () => {
    await deliver(gitlab, { address: `${base}/group/app`, token: "glpat-t0k3n" });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v4/projects/group%2Fapp/repository/commits/${SHA}/statuses?name=${encodeURIComponent(KEY)}`,
      `POST /api/v4/projects/group%2Fapp/statuses/${SHA}`,
    ]);
    expect(seen[1]!.headers["private-token"]).toBe("glpat-t0k3n");
    expect(JSON.parse(seen[1]!.body)).toEqual({ state: "success", name: KEY, description: "reconciliation succeeded" });
    seen = [];
    existing = {
      status: 200,
      body: JSON.stringify([{ sha: SHA, status: "success", name: KEY, description: "reconciliation succeeded" }]),
    };
    await deliver(gitlab, { address: `${base}/group/app`, token: "glpat-t0k3n" });
    expect(seen.map((r) => r.method)).toEqual(["GET"]);
  });

  it("gitea: lists the commit's statuses, then creates one with `token` auth", async () => {
    await deliver(gitea, { address: `${base}/org/app`, token: "t0k3n" });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v1/repos/org/app/commits/${SHA}/statuses?limit=50&page=1`,
      `POST /api/v1/repos/org/app/statuses/${SHA}`,
    ]);
    expect(seen[1]!.headers.authorization).toBe("token t0k3n");
    expect(JSON.parse(seen[1]!.body)).toEqual({
      state: "success",
      target_url: "",
      description: "reconciliation succeeded",
      context: KEY,
    });
  });

  it("bitbucket: a 404 for the key means none yet, then the build status is created with Basic auth", async () => {
    existing = { status: 404, body: '{"type":"error"}' };
    await deliver(bitbucket, { address: "https://bitbucket.org/org/app", token: "user:app-pass" });
    const key = sha1Hex(KEY);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /2.0/repositories/org/app/commit/${SHA}/statuses/build/${key}`,
      `POST /2.0/repositories/org/app/commit/${SHA}/statuses/build`,
    ]);
    expect(seen[1]!.headers.authorization).toBe(`Basic ${Buffer.from("user:app-pass").toString("base64")}`);
    expect(JSON.parse(seen[1]!.body)).toEqual({
      key,
      url: "https://bitbucket.org",
      state: "SUCCESSFUL",
      name: "kustomization/app",
      description: "reconciliation succeeded",
    });
  });

  it("a refused status is a failure naming the host only, the token masked", async () => {
    existing = { status: 401, body: '{"message":"Bad credentials for ghp_t0k3n"}' };
    await expect(deliver(github, { address: `${base}/org/app`, token: "ghp_t0k3n" })).rejects.toThrow(
      `GET request to ${base} failed with status code 401: {"message":"Bad credentials for *****"}`,
    );
  });
});

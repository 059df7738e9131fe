// Commit statuses from the real controller, end to end: a GitRepository on a loopback Git server, a
// `gitea` Provider whose address is a loopback server answering as Gitea's API documents (no Gitea runs
// here: decision 0037), and an Alert on Kustomizations. The app's applied commit gets Flux's success
// status and a Kustomization whose build fails gets failure, both with Flux's context
// `kustomization/<name>/<first block of the Provider's UID>`, each after Flux's duplicate-check GET.
// Providers that cannot reach a forge (no token key, an address naming no owner/repo) say so on their
// status, without the token.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";

const client = planeCluster("management").client;
const NC = "notification.toolkit.fluxcd.io/v1beta3";
type Cond = { type: string; status: string; reason: string; message: string };

let ns: string;
const TOKEN = randomBytes(16).toString("hex");
let git: GitHttpServer;
let sha = "";
let forge: Server;
let forgeUrl = "";
type Seen = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
const seen: Seen[] = [];
let controller: ControllerProcess;
let providerUid = "";

async function create(plural: string, apiVersion: string, kind: string, name: string, spec: unknown) {
  const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return client.create<{ metadata: { uid: string } }>(`${base}/namespaces/${ns}/${plural}`, {
    apiVersion,
    kind,
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns } },
    ...(kind === "Secret" ? { stringData: spec } : { spec }),
  });
}
const kustomization = (name: string, path: string) =>
  create("kustomizations", "kustomize.toolkit.fluxcd.io/v1", "Kustomization", name, {
    interval: "1h",
    path,
    prune: true,
    targetNamespace: ns,
    namePrefix: `${name}-`,
    sourceRef: { kind: "GitRepository", name: "app" },
  });
const providerReady = async (name: string) =>
  (
    await client.get<{ status?: { conditions?: Cond[] } }>(`/apis/${NC}/namespaces/${ns}/providers/${name}`)
  ).status?.conditions?.find((c) => c.type === "Ready");

beforeAll(async () => {
  ns = await testNamespace(client, "forge");
  git = await startGitHttpServer();
  const repo = await git.createRepo(`forge-${ns}`);
  sha = await repo.commit(
    {
      "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n",
      "bad/kustomization.yaml":
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - nope.yaml\n",
    },
    "one",
  );
  // Gitea's API as documented: GET …/commits/{sha}/statuses lists (none yet), POST …/statuses/{sha} creates.
  forge = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      if (req.method === "GET") res.writeHead(200, { "Content-Type": "application/json" }).end("[]");
      else res.writeHead(201, { "Content-Type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((r) => forge.listen(0, "127.0.0.1", r));
  forgeUrl = `http://127.0.0.1:${(forge.address() as { port: number }).port}`;
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-forge-") });
  await eventually(
    "the Provider CRD served",
    () => client.get(`/apis/${NC}/namespaces/${ns}/providers`).then(() => true),
    90_000,
  );
  await create("secrets", "v1", "Secret", "gitea-token", { token: TOKEN });
  await create("secrets", "v1", "Secret", "no-token", { username: "flotilla" });
  const provider = await create("providers", NC, "Provider", "gitea", {
    type: "gitea",
    address: `${forgeUrl}/flux/app`,
    secretRef: { name: "gitea-token" },
  });
  providerUid = provider.metadata.uid;
  await create("providers", NC, "Provider", "no-token", {
    type: "gitea",
    address: `${forgeUrl}/flux/app`,
    secretRef: { name: "no-token" },
  });
  await create("providers", NC, "Provider", "not-a-repo", {
    type: "gitea",
    address: `${forgeUrl}/only-an-owner`,
    secretRef: { name: "gitea-token" },
  });
  await create("alerts", NC, "Alert", "commits", {
    providerRef: { name: "gitea" },
    eventSources: [{ kind: "Kustomization", name: "*" }],
  });
  await eventually("the gitea Provider Ready", async () => (await providerReady("gitea"))?.status === "True", 60_000);
  await create("gitrepositories", "source.toolkit.fluxcd.io/v1", "GitRepository", "app", {
    url: repo.url,
    interval: "1h",
    ref: { branch: "main" },
  });
  await kustomization("app", "./app");
  await kustomization("broken", "./bad");
}, 300_000);

afterAll(async () => {
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  await git?.close();
  await new Promise<void>((r) => (forge ? forge.close(() => r()) : r()));
});

describe("commit statuses through a gitea Provider, against Gitea's documented API on loopback", () => {
  it("posts success on the applied commit for the app and failure for the Kustomization whose build fails, with Flux's context", async () => {
    const uidHead = providerUid.split("-")[0]!;
    const posted = (name: string) =>
      seen
        .filter((r) => r.method === "POST")
        .map((r) => ({ ...r, json: JSON.parse(r.body) as Record<string, string> }))
        .find((r) => r.json.context === `kustomization/${name}/${uidHead}`);
    const [app, broken] = await eventually(
      "both statuses posted",
      async () => (posted("app") && posted("broken") ? [posted("app")!, posted("broken")!] : undefined),
      180_000,
    );
    expect(app.path).toBe(`/api/v1/repos/flux/app/statuses/${sha}`);
    expect(app.headers.authorization).toBe(`token ${TOKEN}`);
    expect(app.json).toEqual({
      state: "success",
      target_url: "",
      description: "reconciliation succeeded",
      context: `kustomization/app/${uidHead}`,
    });
    expect(broken.json).toMatchObject({ state: "failure", description: "build failed" });
    // The first POST came after Flux's duplicate check on the same commit.
    const first = seen.findIndex((r) => r.method === "POST");
    expect(seen.slice(0, first).map((r) => r.path)).toContain(
      `/api/v1/repos/flux/app/commits/${sha}/statuses?limit=50&page=1`,
    );
  });

  it("states a missing token key and an address naming no owner/repo on the Provider, without the token", async () => {
    const noToken = await eventually(
      "no-token refused",
      async () => {
        const r = await providerReady("no-token");
        return r?.status === "False" ? r : undefined;
      },
      60_000,
    );
    expect(noToken).toMatchObject({
      reason: "TokenNotSet",
      message: "gitea token cannot be empty: set the 'token' key of the Secret named by spec.secretRef",
    });
    const notRepo = await eventually(
      "not-a-repo refused",
      async () => {
        const r = await providerReady("not-a-repo");
        return r?.status === "False" ? r : undefined;
      },
      60_000,
    );
    expect(notRepo).toMatchObject({ reason: "InvalidAddress" });
    expect(notRepo.message).toContain("invalid repository id 'only-an-owner'");
    expect(JSON.stringify([noToken, notRepo])).not.toContain(TOKEN);
  });
});

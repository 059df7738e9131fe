// ResourceSetInputProviders against the real `flotilla controller` on the shared fleet's management plane,
// beyond Static/ExternalService/OCI: the GitHub, GitLab and Gitea types listing a loopback server that
// answers as each forge's REST API documents (test/support/forge-api.ts; no forge runs here), with the
// token from the secretRef, filters, skip and pagination; cron deployment windows (spec.schedule); and a
// hostile ExternalService (a huge body, a slow drip) bounded by the size cap and reconcileTimeout, with
// the Secret's value never in status, events or the controller's log.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import { eventually } from "../support/fleet-context.js";
import { type ForgeApi, startForgeApi } from "../support/forge-api.js";
import { type Harness, startHarness } from "../support/harness.js";

type Condition = { type: string; status: string; reason: string; message: string };
type Status = { observedGeneration?: number; conditions?: Condition[]; [k: string]: unknown };
type Obj = KubeObject & { status?: Status };

const TOKEN = `tok-${randomBytes(12).toString("hex")}`;
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";
const GROUP = "fluxcd.controlplane.io";
let h: Harness<"rs">;
let ns: string;
let forge: ForgeApi;
let hostile: Server;
let hostileUrl: string;

beforeAll(async () => {
  h = await startHarness({ namespaces: { rs: "rsforge" }, crds: operatorCrds(), controller: { storagePrefix: "rsf" } });
  ns = h.ns.rs;
  forge = await startForgeApi(TOKEN);
  h.onCleanup(() => forge.stop());
  // /huge answers 2 MiB of JSON; /drip sends a byte a second and never ends.
  hostile = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url === "/huge") return res.end(`{"inputs":[{"id":"x","pad":"${"a".repeat(2 * 1024 * 1024)}"}]}`);
    res.write('{"inputs":[');
    const t = setInterval(() => res.write(" "), 1000);
    res.on("close", () => clearInterval(t));
  });
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  h.onCleanup(() => {
    hostile.closeAllConnections();
    return new Promise((resolve) => hostile.close(resolve));
  });
  await h.mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: "forge-token" },
    stringData: { username: "flux", password: `${TOKEN}\n`, token: TOKEN },
  });
}, 180_000);
afterAll(async () => h?.cleanup());

const provider = (name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}) =>
  h.mgmt.client.create(`${API}/${ns}/resourcesetinputproviders`, {
    apiVersion: `${GROUP}/v1`,
    kind: "ResourceSetInputProvider",
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns }, annotations },
    spec,
  });
const settled = (name: string, status: "True" | "False", plural = "resourcesetinputproviders") =>
  eventually(
    `${plural} ${name} Ready=${status}`,
    async () => {
      const r = await h.mgmt.client.get<Obj>(`${API}/${ns}/${plural}/${name}`);
      const ready = r.status?.conditions?.find((c) => c.type === "Ready");
      return r.status?.observedGeneration === r.metadata.generation && ready?.status === status ? r : undefined;
    },
    90_000,
  );
const ready = (o: Obj) => o.status!.conditions!.find((c) => c.type === "Ready")!;
const exported = (o: Obj) => o.status!.exportedInputs as Record<string, unknown>[];
const sha = (s: string) => s.padEnd(40, "0");

describe("Git forge input providers against the forges' documented REST contracts", () => {
  it("GitHubBranch pages through 150 branches with the secret's token and keeps those the filter includes; GitHubPullRequest exports open requests with all filter labels", async () => {
    forge.repos.set("acme/app", {
      branches: [
        ...Array.from({ length: 148 }, (_, i) => ({ name: `chore-${String(i).padStart(3, "0")}`, sha: sha("c") })),
        { name: "feature-a", sha: sha("a1") },
        { name: "feature-b", sha: sha("b1") },
      ],
      tags: [],
      requests: [
        { number: 7, title: "Add A", author: "ann", branch: "feature-a", sha: sha("a1"), labels: ["deploy", "ui"] },
        { number: 8, title: "Add B", author: "bob", branch: "feature-b", sha: sha("b1"), labels: ["ui"] },
        { number: 9, title: "Old", author: "cy", branch: "feature-c", sha: sha("c1"), labels: ["deploy"], open: false },
      ],
    });
    const url = `${forge.url}/acme/app`;
    await provider("gh-branches", {
      type: "GitHubBranch",
      url,
      secretRef: { name: "forge-token" },
      filter: { includeBranch: "^feature-", excludeBranch: "-b$" },
      defaultValues: { env: "preview" },
    });
    await provider("gh-prs", {
      type: "GitHubPullRequest",
      url,
      secretRef: { name: "forge-token" },
      filter: { labels: ["deploy"] },
    });
    // ids: adler32 of the branch name (python3 -c "import zlib; print(zlib.adler32(b'feature-a'))").
    expect(exported(await settled("gh-branches", "True"))).toEqual([
      { env: "preview", id: "304153467", sha: sha("a1"), branch: "feature-a" },
    ]);
    expect(exported(await settled("gh-prs", "True"))).toEqual([
      { id: "7", sha: sha("a1"), branch: "feature-a", title: "Add A", author: "ann", labels: ["deploy", "ui"] },
    ]);
    const branchCalls = forge.calls.filter((c) => c.path === "/api/v3/repos/acme/app/branches");
    expect(branchCalls.length).toBeGreaterThanOrEqual(2); // 150 branches, 100 a page
    expect(branchCalls.every((c) => c.authorized)).toBe(true);
  });

  it("GitLabMergeRequest asks the server for the labels and exports slugs; GitLabTag and GiteaTag sort by semver; GiteaPullRequest and a ResourceSet generate from them", async () => {
    forge.repos.set("group/sub/app", {
      branches: [],
      tags: ["v1.0.0", "v1.2.0", "v1.10.0", "latest"].map((name) => ({ name, sha: sha(name.replace(/\W/g, "")) })),
      requests: [
        { number: 3, title: "Feat", author: "ann", branch: "Feat/Login", sha: sha("f"), labels: ["deploy"] },
        { number: 4, title: "WIP", author: "bob", branch: "wip", sha: sha("e"), labels: [] },
      ],
    });
    forge.repos.set("team/web", forge.repos.get("group/sub/app")!);
    await provider("gl-mrs", {
      type: "GitLabMergeRequest",
      url: `${forge.url}/group/sub/app`,
      secretRef: { name: "forge-token" },
      filter: { labels: ["deploy"] },
    });
    await provider("gl-tags", {
      type: "GitLabTag",
      url: `${forge.url}/group/sub/app`,
      secretRef: { name: "forge-token" },
      filter: { semver: ">=1.0.0", limit: 2 },
    });
    await provider("gitea-prs", {
      type: "GiteaPullRequest",
      url: `${forge.url}/team/web`,
      secretRef: { name: "forge-token" },
    });
    await provider("gitea-tags", {
      type: "GiteaTag",
      url: `${forge.url}/team/web`,
      secretRef: { name: "forge-token" },
      filter: { semver: "~1.2" },
    });
    expect(exported(await settled("gl-mrs", "True"))).toEqual([
      {
        id: "3",
        sha: sha("f"),
        branch: "Feat/Login",
        slug: "feat-login",
        title: "Feat",
        author: "ann",
        labels: ["deploy"],
      },
    ]);
    expect(exported(await settled("gl-tags", "True")).map((i) => [i.tag, i.slug])).toEqual([
      ["v1.10.0", "v1-10-0"],
      ["v1.2.0", "v1-2-0"],
    ]);
    expect(exported(await settled("gitea-tags", "True")).map((i) => i.tag)).toEqual(["v1.2.0"]);
    expect(exported(await settled("gitea-prs", "True")).map((i) => i.id)).toEqual(["3", "4"]);
    expect(forge.calls.some((c) => c.forge === "gitea" && c.path === "/api/v1/version")).toBe(true);

    await h.mgmt.client.create(`${API}/${ns}/resourcesets`, {
      apiVersion: `${GROUP}/v1`,
      kind: "ResourceSet",
      metadata: { name: "previews", namespace: ns, labels: { "flotilla.dev/shard": ns } },
      spec: {
        inputsFrom: [{ name: "gitea-prs" }],
        resources: [
          {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: "preview-<< inputs.id >>", namespace: ns },
            data: { branch: "<< inputs.branch >>", sha: "<< inputs.sha >>", author: "<< inputs.author >>" },
          },
        ],
      },
    });
    await settled("previews", "True", "resourcesets");
    const cm = await h.mgmt.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${ns}/configmaps/preview-4`,
    );
    expect(cm.data).toEqual({ branch: "wip", sha: sha("e"), author: "bob" });
  });

  it("skip.labels holds a labelled pull request at what was exported while its branch moves on", async () => {
    forge.repos.set("acme/skip", {
      branches: [],
      tags: [],
      requests: [{ number: 1, title: "One", author: "ann", branch: "one", sha: sha("1a"), labels: [] }],
    });
    await provider(
      "gh-skip",
      {
        type: "GitHubPullRequest",
        url: `${forge.url}/acme/skip`,
        secretRef: { name: "forge-token" },
        skip: { labels: ["hold"] },
      },
      { [`${GROUP}/reconcileEvery`]: "2s" },
    );
    expect(exported(await settled("gh-skip", "True"))[0]!.sha).toBe(sha("1a"));
    const repo = forge.repos.get("acme/skip")!;
    repo.requests[0] = { ...repo.requests[0]!, sha: sha("1b"), labels: ["hold"] };
    // The new answer was read (its label shows), yet the export still holds the commit exported before.
    const after = await eventually(
      "gh-skip exported after the request got the hold label",
      async () => {
        const o = await h.mgmt.client.get<Obj>(`${API}/${ns}/resourcesetinputproviders/gh-skip`);
        return exported(o)?.[0]?.labels ? o : undefined;
      },
      60_000,
    );
    expect(exported(after)).toEqual([
      { id: "1", sha: sha("1a"), branch: "one", title: "One", author: "ann", labels: ["hold"] },
    ]);
  });

  it("a forge answering 401 without the token fails the provider naming the call; the token never shows", async () => {
    await provider("gh-anon", { type: "GitHubBranch", url: `${forge.url}/acme/app` });
    const failed = ready(await settled("gh-anon", "False"));
    expect(failed.message).toBe(
      `failed to call Git provider: failed to list branches: could not list branches: GET ${forge.url}/api/v3/repos/acme/app/branches: 401 Bad credentials`,
    );
  });
});

describe("cron deployment windows (spec.schedule)", () => {
  it("outside every window the provider is not called: Ready SkippedDueToSchedule with status.nextSchedule; a bad cron stalls it by name", async () => {
    forge.repos.set("acme/windowed", { branches: [{ name: "main", sha: sha("m") }], tags: [], requests: [] });
    // A one-hour window opening at 03:00 on 1 January: now is outside it (unless the test runs then).
    await provider("windowed", {
      type: "GitHubBranch",
      url: `${forge.url}/acme/windowed`,
      secretRef: { name: "forge-token" },
      schedule: [{ cron: "0 3 1 1 *", window: "1h" }],
    });
    const o = await settled("windowed", "True");
    expect(ready(o).reason).toBe("SkippedDueToSchedule");
    const next = o.status!.nextSchedule as Record<string, string>;
    expect(next).toMatchObject({ cron: "0 3 1 1 *", timeZone: "UTC", window: "1h0m0s" });
    expect(ready(o).message).toBe(`Reconciliation skipped, next scheduled at ${next.when}`);
    expect(next.when).toMatch(/^\d{4}-01-01T03:00:00Z$/);
    expect(o.status!.exportedInputs).toBeUndefined();
    expect(forge.calls.some((c) => c.path.includes("/acme/windowed/"))).toBe(false);

    await provider("bad-cron", {
      type: "GitHubBranch",
      url: `${forge.url}/acme/windowed`,
      schedule: [{ cron: "0 3 * *", timeZone: "Europe/Paris" }],
    });
    const bad = await settled("bad-cron", "False");
    expect(ready(bad)).toMatchObject({
      reason: "InvalidSchedule",
      message:
        "Reconciliation failed terminally due to configuration error: failed to validate schedule[0]: failed to parse cron spec '0 3 * *' with timezone 'Europe/Paris': expected exactly 5 fields, found 4: [0 3 * *]",
    });
  });
});

describe("a hostile ExternalService", () => {
  it("a huge answer stops at the 900 KiB cap and a slow drip at reconcileTimeout, each named in status; the token is in no status, event or log line", async () => {
    await provider("huge", {
      type: "ExternalService",
      url: `${hostileUrl}/huge`,
      insecure: true,
      secretRef: { name: "forge-token" },
    });
    await provider(
      "drip",
      { type: "ExternalService", url: `${hostileUrl}/drip`, insecure: true, secretRef: { name: "forge-token" } },
      { [`${GROUP}/reconcileTimeout`]: "3s" },
    );
    expect(ready(await settled("huge", "False")).message).toBe(
      `failed to call ExternalService provider: external service '${hostileUrl}/huge' response body exceeds the maximum allowed size of 921600 bytes`,
    );
    const drip = await settled("drip", "False");
    expect(ready(drip).message).toBe(
      `failed to call ExternalService provider: failed to read response from external service '${hostileUrl}/drip': timed out after 3s (the provider's reconcileTimeout)`,
    );
    const providers = await h.mgmt.client.get<{ items: Obj[] }>(`${API}/${ns}/resourcesetinputproviders`);
    const events = await h.mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${ns}/events`);
    expect(events.items.length).toBeGreaterThan(0);
    for (const text of [
      JSON.stringify(providers.items.map((p) => p.status)),
      JSON.stringify(events.items),
      JSON.stringify(h.controller.logs),
    ])
      expect(text).not.toContain(TOKEN);
  });
});

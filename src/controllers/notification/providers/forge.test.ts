import { describe, expect, it } from "vitest";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { ProviderInvalid } from "../errors.js";
import { bitbucket, checkBitbucket } from "./bitbucket.js";
import { bitbucketServer, bitbucketServerCommits } from "./bitbucket-server.js";
import { commitOf, commitStatusKey, nameAndDescription, parseGitAddress, sha1Hex, splitCamelcase } from "./forge.js";
import { checkGitea, gitea } from "./gitea.js";
import { checkGithub, github } from "./github.js";
import { githubDispatch } from "./github-dispatch.js";
import { gitlab } from "./gitlab.js";

const SHA = "a1afe267b54f38b46b487f6e938a6fd508278c07";
const UID = "0c9c2e41-d2f9-4f9b-9c41-bebc1984d67a";
const event = (over: Partial<FluxEvent> = {}): FluxEvent => ({
  involvedObject: { kind: "Kustomization", namespace: "flux-system", name: "gitops-system" },
  severity: "info",
  timestamp: "2020-01-01T00:00:00Z",
  message: "Reconciliation finished",
  reason: "ReconciliationSucceeded",
  metadata: { revision: `main@sha1:${SHA}` },
  reportingController: "kustomize-controller",
  ...over,
});

describe("notification-controller's forge helpers (util_test.go's cases)", () => {
  it("parses https, .git, scp-like, ssh:// and subgroup addresses into host and repository id", () => {
    expect(parseGitAddress("https://github.com/foo/bar")).toEqual({ host: "https://github.com", id: "foo/bar" });
    expect(parseGitAddress("https://gitlab.com/foo/bar.git")).toEqual({ host: "https://gitlab.com", id: "foo/bar" });
    expect(parseGitAddress("git@gitlab.com:foo/bar.git")).toEqual({ host: "https://gitlab.com", id: "foo/bar" });
    expect(parseGitAddress("ssh://git@github.com/stefanprodan/podinfo")).toEqual({
      host: "https://github.com",
      id: "stefanprodan/podinfo",
    });
    expect(parseGitAddress("https://gitlab.com/foo/bar/foo.git")?.id).toBe("foo/bar/foo");
  });

  it("extracts the commit from current and legacy revisions, and refuses a revision without a hash", () => {
    for (const rev of [`sha1:${SHA}`, `master@sha1:${SHA}`, `environment/dev@sha1:${SHA}`, `master/${SHA}`])
      expect(commitOf(event({ metadata: { revision: rev } }))).toBe(SHA);
    expect(() => commitOf(event({ metadata: { revision: "master" } }))).toThrow(
      "failed to extract commit hash from 'master' revision",
    );
    expect(() => commitOf(event({ metadata: {} }))).toThrow("missing revision metadata");
    // commit wins over originRevision over revision (eventv1.Event.GetRevision)
    expect(commitOf(event({ metadata: { revision: "x", originRevision: `sha1:${SHA}` } }))).toBe(SHA);
  });

  it("names and describes as formatNameAndDescription, keys as generateDefaultCommitStatus, hashes as sha1String", () => {
    expect(nameAndDescription(event({ reason: "ApplySucceeded" }))).toEqual({
      name: "kustomization/gitops-system",
      description: "apply succeeded",
    });
    expect(splitCamelcase("HTTPServerFailed2Times")).toEqual(["HTTP", "Server", "Failed", "2", "Times"]);
    expect(commitStatusKey(event(), UID)).toBe("kustomization/gitops-system/0c9c2e41");
    expect(sha1Hex("kustomization/namespace-foo-and-service-bar")).toBe("12ea142172e98435e16336acbbed8919610922c3");
  });
});

describe("commit-status payloads (the forge clients' requests as Flux's notifiers send them)", () => {
  it("github: a status on the commit after a duplicate check; enterprise hosts use /api/v3/; Progressing is not posted", () => {
    const req = github(event(), { address: "https://github.com/foo/bar", token: "t0k3n", providerUid: UID })!;
    expect(req.url).toBe(`https://api.github.com/repos/foo/bar/statuses/${SHA}`);
    expect(req.headers).toMatchObject({ Authorization: "Bearer t0k3n", Accept: "application/vnd.github.v3+json" });
    expect(req.body).toBe(
      '{"state":"success","description":"reconciliation succeeded","context":"kustomization/gitops-system/0c9c2e41"}\n',
    );
    expect(req.unlessPresent!.url).toBe(`https://api.github.com/repos/foo/bar/commits/${SHA}/statuses?per_page=50`);
    const same = [
      { context: "kustomization/gitops-system/0c9c2e41", state: "success", description: "reconciliation succeeded" },
    ];
    expect(req.unlessPresent!.present(JSON.stringify(same))).toBe(true);
    expect(req.unlessPresent!.present(JSON.stringify([{ ...same[0], state: "failure" }, same[0]]))).toBe(false);
    const ghe = github(event({ severity: "error" }), { address: "https://ghe.example.com/org/app.git", token: "t" })!;
    expect(ghe.url).toBe(`https://ghe.example.com/api/v3/repos/org/app/statuses/${SHA}`);
    expect(JSON.parse(ghe.body)).toMatchObject({ state: "failure" });
    expect(
      github(event({ reason: "Progressing" }), { address: "https://github.com/foo/bar", token: "t" }),
    ).toBeUndefined();
  });

  it("gitea: pending for Progressing, Gitea's `token` auth, CreateStatusOption's fields with an empty target_url", () => {
    const s = { address: "http://127.0.0.1:3000/flux/app", token: "t0k3n", providerUid: UID };
    const req = gitea(event({ reason: "Progressing" }), s)!;
    expect(req.url).toBe(`http://127.0.0.1:3000/api/v1/repos/flux/app/statuses/${SHA}`);
    expect(req.headers.Authorization).toBe("token t0k3n");
    expect(req.body).toBe(
      '{"state":"pending","target_url":"","description":"progressing","context":"kustomization/gitops-system/0c9c2e41"}',
    );
    expect(req.unlessPresent!.url).toBe(
      `http://127.0.0.1:3000/api/v1/repos/flux/app/commits/${SHA}/statuses?limit=50&page=1`,
    );
    expect(JSON.parse(gitea(event({ severity: "error" }), s)!.body).state).toBe("failure");
  });

  it("gitlab: the project path escaped as one segment, Private-Token, the status named with Flux's key", () => {
    const req = gitlab(event(), { address: "https://gitlab.com/group/sub/app.git", token: "t0k3n", providerUid: UID })!;
    expect(req.url).toBe(`https://gitlab.com/api/v4/projects/group%2Fsub%2Fapp/statuses/${SHA}`);
    expect(req.headers["Private-Token"]).toBe("t0k3n");
    expect(req.body).toBe(
      '{"state":"success","name":"kustomization/gitops-system/0c9c2e41","description":"reconciliation succeeded"}',
    );
    expect(req.unlessPresent!.url).toBe(
      `https://gitlab.com/api/v4/projects/group%2Fsub%2Fapp/repository/commits/${SHA}/statuses?name=kustomization%2Fgitops-system%2F0c9c2e41`,
    );
  });

  it("bitbucket: Basic auth from <user>:<password>, the key hashed, a 404 on the key is no duplicate", () => {
    const req = bitbucket(event({ severity: "error" }), {
      address: "https://bitbucket.org/foo/bar",
      token: "u:p",
      providerUid: UID,
    })!;
    const key = sha1Hex("kustomization/gitops-system/0c9c2e41");
    expect(req.url).toBe(`https://api.bitbucket.org/2.0/repositories/foo/bar/commit/${SHA}/statuses/build`);
    expect(req.headers.Authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
    expect(req.body).toBe(
      `{"key":"${key}","url":"https://bitbucket.org","state":"FAILED","name":"kustomization/gitops-system","description":"reconciliation succeeded"}`,
    );
    expect(req.unlessPresent).toMatchObject({ url: `${req.url}/${key}`, accept: [404] });
    expect(() => checkBitbucket({ address: "https://bitbucket.org/foo/bar", token: "no-colon" })).toThrow(
      "invalid token format",
    );
  });

  it("bitbucketserver: the commits endpoint from the /scm/ clone URL, name `kind/name [description]`", () => {
    expect(bitbucketServerCommits("https://bb.example.com/context/scm/PRJ/app.git")).toBe(
      "https://bb.example.com/context/rest/api/latest/projects/PRJ/repos/app/commits",
    );
    const req = bitbucketServer(event(), {
      address: "https://bb.example.com/scm/PRJ/app.git",
      token: "t",
      providerUid: UID,
    })!;
    expect(req.url).toBe(`https://bb.example.com/rest/api/latest/projects/PRJ/repos/app/commits/${SHA}/builds`);
    expect(JSON.parse(req.body)).toEqual({
      description: "reconciliation succeeded",
      key: sha1Hex("kustomization/gitops-system/0c9c2e41"),
      name: "kustomization/gitops-system [reconciliation succeeded]",
      state: "SUCCESSFUL",
      url: "https://bb.example.com/scm/PRJ/app.git",
    });
    expect(() => bitbucketServerCommits("https://bb.example.com/PRJ/app.git")).toThrow(ProviderInvalid);
  });

  it("githubdispatch: event_type Kind/name.namespace and the Flux event as client_payload", () => {
    const req = githubDispatch(event(), { address: "https://github.com/foo/bar", token: "t" })!;
    expect(req.url).toBe("https://api.github.com/repos/foo/bar/dispatches");
    expect(
      req.body.startsWith('{"event_type":"Kustomization/gitops-system.flux-system","client_payload":{"involvedObject"'),
    ).toBe(true);
    expect(JSON.parse(req.body).client_payload.metadata).toEqual({ revision: `main@sha1:${SHA}` });
  });

  it("refuses, by the key to set and never with its value, a missing token and an address that names no owner/repo", () => {
    expect(() => checkGithub({ address: "https://github.com/foo/bar" })).toThrow(
      "github token cannot be empty: set the 'token' key of the Secret named by spec.secretRef",
    );
    expect(() => checkGithub({ address: "https://github.com/foo/bar/baz", token: "s3cr3t" })).toThrow(
      "invalid repository id 'foo/bar/baz'",
    );
    try {
      checkGitea({ address: "http://127.0.0.1:3000/only-owner", token: "s3cr3t" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProviderInvalid);
      expect((err as Error).message).not.toContain("s3cr3t");
    }
  });
});

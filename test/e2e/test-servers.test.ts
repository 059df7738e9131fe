// Self-tests of the real test servers in test/support: git smart HTTP (git http-backend), git over
// SSH (OpenSSH sshd) and a Helm chart repository (real helm), each driven by the real clients.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import { runGit } from "../support/git-repository.js";
import { startGitSshServer } from "../support/git-ssh-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const work = makeWorkDir("flotilla-test-servers-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
const scratch = (name: string) => join(work, `${++n}-${name}`);

function lsRemote(out: string): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const line of out.trim().split("\n").filter(Boolean)) {
    const [sha, ref] = line.split("\t");
    refs[ref!] = sha!;
  }
  return refs;
}

describe("git smart-HTTP server", () => {
  let server: GitHttpServer;
  beforeAll(async () => {
    server = await startGitHttpServer();
  });
  afterAll(() => server.close());

  it("serves a repo that real git clones, and counts requests", async () => {
    const repo = await server.createRepo("apps/podinfo");
    const first = await repo.commit({ "deploy/app.yaml": "replicas: 1\n", "README.md": "hi\n" }, "first");
    const second = await repo.commit({ "README.md": null, "deploy/app.yaml": "replicas: 2\n" }, "second");
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(await repo.head("main")).toBe(second);
    expect(repo.url).toBe(`${server.url}/apps/podinfo.git`);

    server.resetCounters();
    const dest = scratch("clone");
    const clone = await runGit(["clone", "--quiet", repo.url, dest]);
    expect(clone.stderr).toBe("");
    expect(clone.code).toBe(0);
    expect(readFileSync(join(dest, "deploy/app.yaml"), "utf8")).toBe("replicas: 2\n");
    expect(existsSync(join(dest, "README.md"))).toBe(false);
    expect((await runGit(["-C", dest, "rev-parse", "HEAD"])).stdout.trim()).toBe(second);
    expect(server.requests.infoRefs).toBe(1);
    expect(server.requests.fetch).toBe(1);
    expect(server.requests.byPath["GET /apps/podinfo.git/info/refs"]).toBe(1);

    // ls-remote lists refs but fetches nothing.
    server.resetCounters();
    const ls = await runGit(["ls-remote", repo.url]);
    expect(ls.code).toBe(0);
    expect(lsRemote(ls.stdout)["refs/heads/main"]).toBe(second);
    expect(server.requests.infoRefs).toBe(1);
    expect(server.requests.lsRefs).toBe(1); // protocol v2: refs come from a POST command=ls-refs
    expect(server.requests.fetch).toBe(0);
  });

  it("shows new commits, branches and tags to git ls-remote", async () => {
    const repo = await server.createRepo("infra");
    const c1 = await repo.commit({ "a.txt": "1\n" }, "one");
    expect(lsRemote((await runGit(["ls-remote", repo.url])).stdout)["refs/heads/main"]).toBe(c1);

    const c2 = await repo.commit({ "a.txt": "2\n" }, "two");
    const f1 = await repo.commit({ "b.txt": "feature\n" }, "feature work", { branch: "feature" });
    await repo.tag("v1.0.0", c1);
    await repo.tag("v2.0.0", c2, true);
    let refs = lsRemote((await runGit(["ls-remote", repo.url])).stdout);
    expect(refs["refs/heads/main"]).toBe(c2);
    expect(refs["refs/heads/feature"]).toBe(f1);
    expect(refs["refs/tags/v1.0.0"]).toBe(c1);
    expect(refs["refs/tags/v2.0.0^{}"]).toBe(c2); // annotated: peeled to the commit
    expect(refs["refs/tags/v2.0.0"]).not.toBe(c2);
    // The feature branch starts from main's head at the time.
    expect((await runGit(["--git-dir", repo.path, "rev-parse", `${f1}^`])).stdout.trim()).toBe(c2);

    await repo.deleteBranch("feature");
    refs = lsRemote((await runGit(["ls-remote", repo.url])).stdout);
    expect(refs["refs/heads/feature"]).toBeUndefined();
    await expect(repo.head("feature")).rejects.toThrow(/does not exist/);
  });

  it("requires basic auth when configured", async () => {
    const secured = await startGitHttpServer({ auth: { username: "flux", password: "s3cret" } });
    try {
      const repo = await secured.createRepo("private");
      const sha = await repo.commit({ "x.yaml": "x: 1\n" }, "init");
      const withCreds = (user: string, pass: string) => repo.url.replace("http://", `http://${user}:${pass}@`);

      const dest = scratch("private");
      const ok = await runGit(["clone", "--quiet", withCreds("flux", "s3cret"), dest]);
      expect(ok.code).toBe(0);
      expect((await runGit(["-C", dest, "rev-parse", "HEAD"])).stdout.trim()).toBe(sha);

      const wrong = await runGit(["clone", "--quiet", withCreds("flux", "nope"), scratch("wrong")]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/Authentication failed/);

      const none = await runGit(["ls-remote", repo.url]);
      expect(none.code).not.toBe(0);
      expect(secured.requests.unauthorized).toBeGreaterThanOrEqual(2);

      const res = await fetch(`${repo.url}/info/refs?service=git-upload-pack`);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="git"');

      const ls = await runGit(["ls-remote", withCreds("flux", "s3cret")]);
      expect(lsRemote(ls.stdout)["refs/heads/main"]).toBe(sha);
    } finally {
      await secured.close();
    }
  });

  it("accepts a bearer token when configured", async () => {
    const secured = await startGitHttpServer({ auth: { token: "tok-123" } });
    try {
      const repo = await secured.createRepo("tokened");
      const sha = await repo.commit({ "x.yaml": "x: 1\n" }, "init");
      const good = await runGit(["-c", "http.extraHeader=Authorization: Bearer tok-123", "ls-remote", repo.url]);
      expect(lsRemote(good.stdout)["refs/heads/main"]).toBe(sha);
      const bad = await runGit(["-c", "http.extraHeader=Authorization: Bearer other", "ls-remote", repo.url]);
      expect(bad.code).not.toBe(0);
    } finally {
      await secured.close();
    }
  });
});

describe("git SSH server", () => {
  it("serves git ls-remote and clone over ssh with the client key and known_hosts", async () => {
    const ssh = await startGitSshServer();
    try {
      expect(ssh.knownHostsLine).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${ssh.port} ssh-ed25519 AAAA\\S+$`));
      expect(ssh.clientKey.privateKeyPem).toContain("-----BEGIN OPENSSH PRIVATE KEY-----");
      expect(ssh.clientKey.publicKey).toMatch(/^ssh-ed25519 AAAA/);

      const repo = await ssh.createRepo("fleet");
      const sha = await repo.commit({ "clusters/a.yaml": "a: 1\n" }, "init");
      expect(repo.url).toBe(`ssh://${ssh.user}@127.0.0.1:${ssh.port}${repo.path}`);

      // Exactly the documented client setup: key file, known_hosts file, strict checking, -p PORT.
      const key = join(work, "id_ed25519");
      const knownHosts = join(work, "known_hosts");
      writeFileSync(knownHosts, ssh.knownHostsLine + "\n");
      writeFileSync(key, ssh.clientKey.privateKeyPem, { mode: 0o600 });
      const sshCommand = `ssh -F /dev/null -i ${key} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -p ${ssh.port}`;
      const ls = await runGit(["ls-remote", repo.url], { env: { GIT_SSH_COMMAND: sshCommand } });
      expect(ls.stderr).toBe("");
      expect(lsRemote(ls.stdout)["refs/heads/main"]).toBe(sha);

      const dest = scratch("ssh-clone");
      expect((await runGit(["clone", "-q", repo.url, dest], { env: ssh.gitEnv() })).code).toBe(0);
      expect(readdirSync(join(dest, "clusters"))).toEqual(["a.yaml"]);

      // Wrong host key in known_hosts: strict checking refuses.
      const otherHosts = join(work, "known_hosts_wrong");
      writeFileSync(
        otherHosts,
        `[127.0.0.1]:${ssh.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n`,
      );
      const bad = await runGit(["ls-remote", repo.url], {
        env: { GIT_SSH_COMMAND: sshCommand.replace(knownHosts, otherHosts) },
      });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/HOST IDENTIFICATION HAS CHANGED|Host key verification failed/);
    } finally {
      await ssh.close();
    }
  });
});

describe("Helm chart repository", () => {
  it("indexes packaged charts and real helm pulls them, with and without basic auth", async () => {
    for (const auth of [undefined, { username: "helm", password: "pw" }]) {
      const repo = await startChartRepo({ auth });
      try {
        await repo.addChart("podinfo", "6.5.0", { appVersion: "6.5.0" });
        await repo.addChart("podinfo", "6.6.0");
        const headers: Record<string, string> = auth
          ? { Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}` }
          : {};
        const res = await fetch(`${repo.url}/index.yaml`, { headers });
        expect(res.status).toBe(200);
        const index = parse(await res.text()) as {
          entries: Record<string, { version: string; appVersion?: string; urls: string[] }[]>;
        };
        const versions = index.entries.podinfo!.map((e) => e.version).sort();
        expect(versions).toEqual(["6.5.0", "6.6.0"]);
        const v650 = index.entries.podinfo!.find((e) => e.version === "6.5.0")!;
        expect(v650.appVersion).toBe("6.5.0");
        expect(v650.urls).toEqual([`${repo.url}/podinfo-6.5.0.tgz`]);

        const dest = scratch("pull");
        mkdirSync(dest); // helm pull -d does not create it
        const creds = auth ? ["--username", auth.username, "--password", auth.password] : [];
        const env = helmEnv(scratch("helm-home"));
        await runHelm(["pull", "--repo", repo.url, "podinfo", "--version", "6.5.0", "-d", dest, ...creds], env);
        expect(readdirSync(dest)).toEqual(["podinfo-6.5.0.tgz"]);
        expect(repo.requests.charts).toBe(1);
        if (auth) {
          expect((await fetch(`${repo.url}/index.yaml`)).status).toBe(401);
          await expect(
            runHelm(["pull", "--repo", repo.url, "podinfo", "--version", "6.5.0", "-d", work], env),
          ).rejects.toThrow(/401|Unauthorized/i);
        }
      } finally {
        await repo.close();
      }
    }
  });
});

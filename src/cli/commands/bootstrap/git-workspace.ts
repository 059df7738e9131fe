// The platform repository as `bootstrap git` works on it: a clone of one branch in a private temporary
// directory (its own HOME, no user or system git config), files written, one commit, a push. The git
// binary is wrapped here once; credentials go to git through the environment (an extra HTTP header),
// never on a command line another user could read, and never into an error message.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FlotillaError } from "../../../util/errors.js";
import { makeWorkDir } from "../../../util/work-dir.js";

export class GitWorkspaceError extends FlotillaError {
  override name = "GitWorkspaceError";
}

export interface GitAuth {
  username?: string;
  password?: string;
  /** Over SSH: an unencrypted private key and the server's known_hosts line (strict checking). */
  ssh?: { privateKey: string; knownHosts: string };
}

export interface Author {
  name: string;
  email: string;
}

export class GitWorkspace {
  readonly dir: string;
  private readonly home: string;

  private constructor(
    private readonly url: string,
    private readonly auth: GitAuth,
    private readonly secrets: string[],
  ) {
    this.home = makeWorkDir("flotilla-bootstrap-home-");
    this.dir = join(this.home, "repo");
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      LANG: "C",
    };
    if (this.auth.ssh) {
      const key = join(this.home, "identity");
      const knownHosts = join(this.home, "known_hosts");
      writeFileSync(key, this.auth.ssh.privateKey, { mode: 0o600 });
      writeFileSync(knownHosts, `${this.auth.ssh.knownHosts}\n`);
      env.GIT_SSH_COMMAND = `ssh -i ${key} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -o BatchMode=yes`;
    } else if (this.auth.username || this.auth.password) {
      const basic = Buffer.from(`${this.auth.username ?? "git"}:${this.auth.password ?? ""}`).toString("base64");
      Object.assign(env, {
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "http.extraHeader",
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
      });
    }
    return env;
  }

  git(args: string[], cwd = this.dir): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn("git", args, { cwd, env: this.env(), stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.once("error", (e) =>
        reject(new GitWorkspaceError(`git is not installed or not on PATH (${e.message}): install git and retry`)),
      );
      child.once("close", (code) => {
        if (code === 0) return resolve(out);
        let said = err.trim().split("\n").slice(-2).join("; ");
        for (const s of this.secrets) if (s) said = said.replaceAll(s, "***");
        reject(new GitWorkspaceError(`git ${args[0]} ${this.url}: ${said}`));
      });
    });
  }

  /** Clones `branch`; an empty repository or a missing branch starts a new branch. */
  static async clone(url: string, branch: string, auth: GitAuth): Promise<GitWorkspace> {
    const w = new GitWorkspace(url, auth, [auth.password ?? ""]);
    const heads = await w.git(["ls-remote", "--heads", url, branch], w.home);
    if (heads.trim()) {
      await w.git(["clone", "--quiet", "--single-branch", "--branch", branch, url, w.dir], w.home);
    } else {
      mkdirSync(w.dir);
      await w.git(["init", "--quiet", "--initial-branch", branch]);
      await w.git(["remote", "add", "origin", url]);
    }
    return w;
  }

  write(files: Record<string, string>): void {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), text);
    }
  }

  /** Commits what changed under `paths` and pushes; undefined when nothing changed. */
  async commitAndPush(paths: string[], message: string, author: Author, branch: string): Promise<string | undefined> {
    await this.git(["add", "--", ...paths]);
    const staged = await this.git(["status", "--porcelain", "--", ...paths]);
    if (!staged.trim()) return undefined;
    await this.git([
      "-c",
      `user.name=${author.name}`,
      "-c",
      `user.email=${author.email}`,
      "commit",
      "--quiet",
      "-m",
      message,
    ]);
    await this.git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
    return (await this.git(["rev-parse", "HEAD"])).trim();
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

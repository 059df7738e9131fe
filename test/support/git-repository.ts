// Bare repositories for tests: git with a fixed test identity and an isolated HOME, and a handle
// that commits (also signed, on any branch, with submodule links), tags and deletes refs, built on
// the demo's plumbing (src/demo/git-repository.ts). Author/committer are fixed and dates step by one
// second per commit from 2024-01-01T00:00:00Z, so the same sequence of operations gives the same shas.
//
//   const repo = openBareRepo(path, url);               // any bare repo (git-http-server.ts, git-ssh-server.ts)
//   const sha = await repo.commit({ "a.yaml": "x: 1\n", "old.txt": null }, "msg", { branch: "main" });
//   await repo.tag("v1.0.0", sha, true);                // annotated; (name, sha = head(main), annotated = false)
//   await repo.deleteBranch("feature"); await repo.head("main"); await repo.refs();
//   await runGit(["ls-remote", repo.url]);              // argument array, no shell, test identity
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commitFiles,
  type CommitFiles,
  git as productGit,
  gitEnv as productGitEnv,
  type GitRunOptions,
  type GitRunResult,
  resolveCommit,
  runGit as productRunGit,
} from "../../src/demo/git-repository.js";

/** An OpenPGP key in a GNUPGHOME, for signed commits and tags (`{ gitlink: sha }` files make submodules). */
export interface GpgSigner {
  keyId: string;
  gnupgHome: string;
}

export interface GitRepoHandle {
  /** Repository name as given to createRepo (without ".git"). */
  name: string;
  /** Absolute path of the bare repository. */
  path: string;
  /** Clone URL (http://127.0.0.1:PORT/<name>.git, or whatever the creator passed). */
  url: string;
  /**
   * Commits `files` (path -> content; null deletes) on top of `branch` (default "main") and moves
   * the branch. A missing branch is created from `from` (a ref or sha), by default main's head
   * (an orphan root commit when main does not exist yet). Returns the 40-hex commit sha.
   */
  commit(
    files: CommitFiles,
    message: string,
    opts?: { branch?: string; from?: string; sign?: GpgSigner },
  ): Promise<string>;
  /** Creates or moves tag `name` to `sha` (default main's head); returns the tagged commit sha. */
  tag(name: string, sha?: string, annotated?: boolean, sign?: GpgSigner): Promise<string>;
  deleteTag(name: string): Promise<void>;
  deleteBranch(name: string): Promise<void>;
  /** Commit sha at refs/heads/<branch>; throws when the branch does not exist. */
  head(branch?: string): Promise<string>;
  /** Every ref: { "refs/heads/main": sha, "refs/tags/v1": sha-of-tag-object-or-commit, ... }. */
  refs(): Promise<Record<string, string>>;
}

const TEST_IDENTITY = {
  GIT_AUTHOR_NAME: "Flotilla Test",
  GIT_AUTHOR_EMAIL: "test@flotilla.invalid",
  GIT_COMMITTER_NAME: "Flotilla Test",
  GIT_COMMITTER_EMAIL: "test@flotilla.invalid",
};

/** An empty HOME shared by test git processes (fixed path: nothing accumulates in /tmp). */
function testHome(): string {
  const home = join(tmpdir(), "flotilla-test-git-home");
  mkdirSync(home, { recursive: true });
  return home;
}

/** Environment for test git processes: no system/global config, no prompts, fixed identity. */
export function gitEnv(home: string = testHome(), extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return productGitEnv(home, { ...TEST_IDENTITY, ...extra });
}

const withTestIdentity = (opts: GitRunOptions): GitRunOptions => ({
  ...opts,
  home: opts.home ?? testHome(),
  env: { ...TEST_IDENTITY, ...opts.env },
});

/** Runs git with an argument array (no shell); never throws on a non-zero exit. */
export const runGit = (args: string[], opts: GitRunOptions = {}): Promise<GitRunResult> =>
  productRunGit(args, withTestIdentity(opts));

/** runGit, throwing with git's stderr on failure; returns trimmed stdout. */
const git = (args: string[], opts: GitRunOptions = {}): Promise<string> => productGit(args, withTestIdentity(opts));

const EPOCH = Date.UTC(2024, 0, 1) / 1000;

/** A handle to an existing bare repository (see GitRepoHandle). */
export function openBareRepo(path: string, url: string, name = path): GitRepoHandle {
  let tick = 0;
  let queue: Promise<unknown> = Promise.resolve();
  // Operations on one repo run one at a time (update-ref compare-and-swap would fail otherwise).
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };
  const g = (args: string[], opts: GitRunOptions = {}) => git(["--git-dir", path, ...args], opts);
  const dated = () => {
    const date = `${EPOCH + ++tick} +0000`;
    return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  };
  const head = async (branch = "main"): Promise<string> => {
    const sha = await resolveCommit(path, `refs/heads/${branch}`);
    if (!sha) throw new Error(`${name}: branch ${branch} does not exist`);
    return sha;
  };

  return {
    name,
    path,
    url,
    head,
    commit: (files, message, opts = {}) =>
      serial(async () => {
        const ref = `refs/heads/${opts.branch ?? "main"}`;
        const current = await resolveCommit(path, ref);
        const parent = current ?? (await resolveCommit(path, opts.from ?? "refs/heads/main"));
        if (!current && opts.from && !parent) throw new Error(`${name}: cannot resolve ${opts.from}`);
        return commitFiles(path, ref, files, message, {
          current,
          parent,
          env: { ...TEST_IDENTITY, ...dated(), ...(opts.sign ? { GNUPGHOME: opts.sign.gnupgHome } : {}) },
          commitTreeArgs: opts.sign ? [`-S${opts.sign.keyId}`] : [],
        });
      }),
    tag: (tagName, sha, annotated = false, sign) =>
      serial(async () => {
        const target = sha ? await resolveCommit(path, sha) : await head("main");
        if (!target) throw new Error(`${name}: cannot resolve ${sha}`);
        const kind = sign ? ["-s", "-u", sign.keyId] : annotated ? ["-a"] : [];
        const args = kind.length
          ? ["tag", "-f", ...kind, "-m", tagName, tagName, target]
          : ["tag", "-f", tagName, target];
        await g(args, { env: { ...dated(), ...(sign ? { GNUPGHOME: sign.gnupgHome } : {}) } });
        return target;
      }),
    deleteTag: (tagName) =>
      serial(async () => {
        await g(["update-ref", "-d", `refs/tags/${tagName}`]);
      }),
    deleteBranch: (branch) =>
      serial(async () => {
        await head(branch);
        await g(["update-ref", "-d", `refs/heads/${branch}`]);
      }),
    refs: async () => {
      const out = await g(["for-each-ref", "--format=%(refname) %(objectname)"]);
      const refs: Record<string, string> = {};
      for (const line of out.split("\n").filter(Boolean)) {
        const [refName, obj] = line.split(" ");
        refs[refName!] = obj!;
      }
      return refs;
    },
  };
}

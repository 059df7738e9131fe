// Bare Git repositories written without a work tree, for the demo's Git server: git runs with an
// argument array (no shell) and an isolated environment (no system or global config, no prompts),
// and commits are made with plumbing (hash-object, a temporary index, write-tree, commit-tree,
// update-ref) directly in the bare repository.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeWorkDir } from "../util/work-dir.js";

export interface GitRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Isolated HOME (default: $TMPDIR/flotilla-git-home, kept empty). */
  home?: string;
}

export interface GitRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** An empty HOME shared by git processes (fixed path: nothing accumulates in /tmp). */
function isolatedHome(): string {
  const home = join(tmpdir(), "flotilla-git-home");
  mkdirSync(home, { recursive: true });
  return home;
}

/** Environment for git processes: no system/global config, no prompts; `extra` adds to it. */
export function gitEnv(home: string = isolatedHome(), extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    LANG: "C",
    LC_ALL: "C",
    ...extra,
  };
}

/** Runs git with an argument array (no shell); never throws on a non-zero exit. */
export function runGit(args: string[], opts: GitRunOptions = {}): Promise<GitRunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("git", args, {
      cwd: opts.cwd,
      env: gitEnv(opts.home, opts.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.once("error", reject);
    child.once("close", (code) =>
      resolvePromise({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => {}); // git may exit before reading all input
    child.stdin.end(opts.input ?? "");
  });
}

/** runGit, throwing with git's stderr on failure; returns trimmed stdout. */
export async function git(args: string[], opts: GitRunOptions = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Creates a bare repository at `path` with HEAD -> refs/heads/main. */
export async function initBareRepo(path: string): Promise<void> {
  mkdirSync(path, { recursive: true });
  await git(["init", "--quiet", "--bare", "--initial-branch=main", path]);
}

/** Validates a repo name ("podinfo", "org/app") and returns it without a trailing ".git". */
export function repoName(name: string): string {
  const bare = name.replace(/\.git$/, "");
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(bare) || bare.split("/").some((s) => s === ".." || s === ".")) {
    throw new Error(`invalid repository name: ${name}`);
  }
  return bare;
}

/** File path → content; null deletes the file, `{ gitlink }` records a submodule commit. */
/** path → content; null deletes; `{ gitlink }` is a submodule, `{ symlink }` a symbolic link to that target. */
export type CommitFiles = Record<string, string | null | { gitlink: string } | { symlink: string }>;

export interface CommitOptions {
  /** Commit to move (compare-and-swap); undefined when the ref does not exist yet. */
  current: string | undefined;
  /** Parent commit (an orphan root commit when undefined). */
  parent: string | undefined;
  /** Author, committer and dates (GIT_AUTHOR_NAME, ...), signing keys. */
  env: NodeJS.ProcessEnv;
  /** Extra commit-tree arguments, e.g. `-S<key>` to sign. */
  commitTreeArgs?: string[];
}

/** Commits `files` on top of `parent` and moves `ref` to the new commit; returns its sha. */
export async function commitFiles(
  gitDir: string,
  ref: string,
  files: CommitFiles,
  message: string,
  opts: CommitOptions,
): Promise<string> {
  const g = (args: string[], o: GitRunOptions = {}) => git(["--git-dir", gitDir, ...args], o);
  const tmp = makeWorkDir("flotilla-git-index-");
  try {
    const env = { GIT_INDEX_FILE: join(tmp, "index") };
    await g(opts.parent ? ["read-tree", opts.parent] : ["read-tree", "--empty"], { env });
    const lines: string[] = [];
    for (const [file, content] of Object.entries(files)) {
      const p = file.replace(/^\/+/, "");
      if (content === null) {
        lines.push(`0 ${"0".repeat(40)}\t${p}`);
      } else if (typeof content === "object" && "symlink" in content) {
        const blob = await g(["hash-object", "-w", "--stdin"], { input: content.symlink });
        lines.push(`120000 ${blob}\t${p}`);
      } else if (typeof content === "object") {
        lines.push(`160000 ${content.gitlink}\t${p}`);
      } else {
        const blob = await g(["hash-object", "-w", "--stdin"], { input: content });
        lines.push(`100644 ${blob}\t${p}`);
      }
    }
    if (lines.length) await g(["update-index", "--index-info"], { env, input: lines.join("\n") + "\n" });
    const tree = await g(["write-tree"], { env });
    const parents = opts.parent ? ["-p", opts.parent] : [];
    const sha = await g(["commit-tree", ...(opts.commitTreeArgs ?? []), tree, ...parents, "-F", "-"], {
      env: opts.env,
      input: message.endsWith("\n") ? message : message + "\n",
    });
    await g(["update-ref", "-m", `commit: ${message.split("\n")[0]}`, ref, sha, opts.current ?? "0".repeat(40)]);
    return sha;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The commit `rev` names, or undefined. */
export async function resolveCommit(gitDir: string, rev: string): Promise<string | undefined> {
  const r = await runGit(["--git-dir", gitDir, "rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

const AUTHOR = { name: "flotilla demo", email: "demo@flotilla.invalid" };
const EPOCH = Date.UTC(2024, 0, 1) / 1000;

/** A served bare repository whose main branch the demo commits to. */
export interface ServedRepository {
  /** Repository name as given to createRepo (without ".git"). */
  name: string;
  /** Absolute path of the bare repository. */
  path: string;
  /** Clone URL: <server url>/<name>.git. */
  url: string;
  /** Commits `files` (path -> content; null deletes) on main; returns the commit sha. */
  commit(files: Record<string, string | null>, message: string): Promise<string>;
}

/**
 * A repository the demo commits to: main only, one commit at a time (update-ref's compare-and-swap
 * would fail otherwise), a fixed author and dates stepping by one second from 2024-01-01T00:00:00Z,
 * so running the demo again makes the same commits.
 */
export function servedRepository(name: string, path: string, url: string): ServedRepository {
  let tick = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const ref = "refs/heads/main";
  return {
    name,
    path,
    url,
    commit: (files, message) => {
      const next = queue.then(async () => {
        const current = await resolveCommit(path, ref);
        const date = `${EPOCH + ++tick} +0000`;
        return commitFiles(path, ref, files, message, {
          current,
          parent: current,
          env: {
            GIT_AUTHOR_NAME: AUTHOR.name,
            GIT_AUTHOR_EMAIL: AUTHOR.email,
            GIT_COMMITTER_NAME: AUTHOR.name,
            GIT_COMMITTER_EMAIL: AUTHOR.email,
            GIT_AUTHOR_DATE: date,
            GIT_COMMITTER_DATE: date,
          },
        });
      });
      queue = next.catch(() => {});
      return next;
    },
  };
}

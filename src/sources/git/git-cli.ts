// Sandboxed git, for the remote repositories of GitRepositories: an argument array (no shell),
// prompts disabled, an isolated HOME and no system or global config, only the http(s) and ssh
// transports (file:// and ext:: refused, also for submodules, which inherit these -c settings),
// bounded concurrency shared fairly between tenants, and a timeout that kills git's whole process
// group (its remote helpers too). Output that reaches errors is masked of URL credentials.
import { FlotillaError } from "../../util/errors.js";
import { killGroup, spawnInGroup } from "../../util/process-group.js";
import { Semaphore } from "../../util/semaphore.js";
import { maskUrlCredentials } from "./credentials.js";

export class GitCommandError extends FlotillaError {
  override name = "GitCommandError";
  constructor(
    message: string,
    readonly stderr: string,
    readonly authFailure: boolean,
  ) {
    super(message);
  }
}

/** 8 git processes at once, a namespace holding none admitted beyond that (semaphore.ts). */
const slots = new Semaphore(8);

async function slot<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
  const release = await slots.acquire(undefined, tenant);
  try {
    return await fn();
  } finally {
    release();
  }
}

// HTTP status codes only where git reports one ("The requested URL returned error: 403"): a bare 401|403
// also matched port numbers ("127.0.0.1 port 40367") and called a refused connection an auth failure.
const AUTH_FAILURE =
  /Authentication failed|could not read Username|returned error: 40[13]\b|\bHTTP 40[13]\b|Permission denied \(publickey|Host key verification failed|terminal prompts disabled/i;

/** True when git's stderr says the server refused the credentials (or asked for some). */
export function isAuthFailure(stderr: string): boolean {
  return AUTH_FAILURE.test(stderr);
}

export interface SandboxedGitOptions {
  cwd?: string;
  env?: Record<string, string>;
  home: string;
  timeoutMs: number;
  /** Whose process this is (a namespace): slots are shared fairly between tenants. */
  tenant?: string;
  /** Said after "timed out after Ns" (e.g. that --max-object-timeout capped spec.timeout). */
  timeoutNote?: string;
}

export async function sandboxedGit(args: string[], options: SandboxedGitOptions): Promise<string> {
  return (await sandboxedGitOutput(args, options)).stdout;
}

/** sandboxedGit, keeping stderr too (e.g. for the gpg status lines of verify-commit). */
export function sandboxedGitOutput(
  args: string[],
  options: SandboxedGitOptions,
): Promise<{ stdout: string; stderr: string }> {
  return slot(
    options.tenant ?? "",
    () =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawnInGroup(
          "git",
          [
            "-c",
            "protocol.allow=never",
            "-c",
            "protocol.https.allow=always",
            "-c",
            "protocol.http.allow=always",
            "-c",
            "protocol.ssh.allow=always",
            "-c",
            "protocol.file.allow=never",
            ...args,
          ],
          {
            cwd: options.cwd,
            env: {
              PATH: process.env.PATH ?? "/usr/bin:/bin",
              HOME: options.home,
              GIT_TERMINAL_PROMPT: "0",
              GIT_ASKPASS: "/bin/false",
              SSH_ASKPASS: "/bin/false",
              GIT_CONFIG_NOSYSTEM: "1",
              GIT_CONFIG_GLOBAL: "/dev/null",
              GIT_PROTOCOL_FROM_USER: "0",
              LC_ALL: "C",
              ...options.env,
            },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (d: Buffer) => (stdout += d));
        child.stderr!.on("data", (d: Buffer) => (stderr += d));
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), options.timeoutMs);
        child.once("error", (err) => {
          clearTimeout(timer);
          reject(new GitCommandError(`git ${args[0]}: ${err.message}`, "", false));
        });
        child.once("close", (code, signal) => {
          clearTimeout(timer);
          if (code === 0) return resolve({ stdout, stderr });
          // The first fatal line says why (a submodule failure ends with a generic "aborting").
          const lines = stderr.trim().split("\n");
          const detail = maskUrlCredentials(
            signal === "SIGKILL"
              ? `timed out after ${options.timeoutMs / 1000}s${options.timeoutNote ? ` (${options.timeoutNote})` : ""}`
              : (lines.find((l) => l.startsWith("fatal: ")) ?? lines.pop() ?? ""),
          );
          reject(
            new GitCommandError(
              detail || `git ${args[0]} exited ${code}`,
              maskUrlCredentials(stderr),
              isAuthFailure(stderr),
            ),
          );
        });
      }),
  );
}

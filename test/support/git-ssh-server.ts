// A real git-over-SSH server for tests: Debian's OpenSSH daemon (/usr/sbin/sshd, package
// openssh-server) run as a non-daemon child (`sshd -D -e -f <config>`) on 127.0.0.1 and a free
// port, as the current user, with its own ed25519 host key and one authorized ed25519 client key.
// Git runs server-side as usual (`git-upload-pack '<path>'` through the user's shell).
//
//   const ssh = await startGitSshServer();
//   const repo = await ssh.createRepo("podinfo");      // bare repo <root>/podinfo.git (GitRepoHandle)
//   repo.url === ssh.urlFor(repo.path)                 // ssh://root@127.0.0.1:PORT/<abs path>.git
//   ssh.clientKey.privateKeyPem                        // OpenSSH-format private key ("-----BEGIN OPENSSH ...")
//   ssh.knownHostsLine                                 // "[127.0.0.1]:PORT ssh-ed25519 AAAA..."
//   await runGit(["ls-remote", repo.url], { env: ssh.gitEnv() });  // GIT_SSH_COMMAND with key + known_hosts
//   await ssh.close();
//
// Any bare repo on this machine can be served (urlFor takes an absolute path), e.g. one created by
// git-http-server.ts, so the same repo can be reached over HTTP and SSH.
// Needs openssh-server: `bash scripts/ensure-system-packages.sh`. As root, sshd needs its privilege
// separation directory /run/sshd, which is created when missing.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join, resolve, sep } from "node:path";
import { initBareRepo, repoName } from "../../src/demo/git-repository.js";
import { gitEnv, openBareRepo, type GitRepoHandle } from "./git-repository.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { freePort } from "../../src/local/ports.js";

export const SSHD = "/usr/sbin/sshd";

export interface GitSshServer {
  host: string;
  port: number;
  /** Login user (the current user). */
  user: string;
  /** Directory for repos made by createRepo. */
  root: string;
  /** ssh://<user>@127.0.0.1:<port><absolute repo path> */
  urlFor(repoPath: string): string;
  /** Creates a bare repo <root>/<name>.git (branch main) whose url is the ssh URL. */
  createRepo(name: string): Promise<GitRepoHandle>;
  clientKey: { privateKeyPem: string; publicKey: string; privateKeyPath: string };
  /** "[127.0.0.1]:PORT ssh-ed25519 AAAA..." */
  knownHostsLine: string;
  /** A known_hosts file holding knownHostsLine. */
  knownHostsPath: string;
  /** The ssh command line for GIT_SSH_COMMAND: this key only, this known_hosts, strict checking. */
  sshCommand: string;
  /** gitEnv() plus GIT_SSH_COMMAND=sshCommand, for runGit/spawn of real git. */
  gitEnv(): NodeJS.ProcessEnv;
  /** sshd's stderr so far (for debugging failed connections). */
  logs(): string;
  close(): Promise<void>;
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", fail);
    child.once("close", (code) =>
      code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(" ")} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

async function keygen(path: string, comment: string): Promise<{ privateKeyPem: string; publicKey: string }> {
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path]);
  return { privateKeyPem: readFileSync(path, "utf8"), publicKey: readFileSync(`${path}.pub`, "utf8").trim() };
}

/** Starts sshd and resolves once it listens; rejects with its stderr when it exits first. */
function launch(config: string): Promise<{ child: ChildProcess; stderr: () => string }> {
  return new Promise((ok, fail) => {
    const child = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill("SIGKILL");
      fail(new Error(`sshd did not start listening within 10s:\n${stderr}`));
    }, 10_000);
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (!done && /Server listening on 127\.0\.0\.1 port \d+/.test(stderr)) {
        done = true;
        clearTimeout(timer);
        ok({ child, stderr: () => stderr });
      }
    });
    child.once("error", (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      fail(err);
    });
    child.once("exit", (code, signal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      fail(new Error(`sshd exited (${code ?? signal}) before listening:\n${stderr}`));
    });
  });
}

export async function startGitSshServer(): Promise<GitSshServer> {
  if (!existsSync(SSHD)) {
    throw new Error(`openssh-server is not installed: run scripts/ensure-system-packages.sh (${SSHD} is missing)`);
  }
  const isRoot = process.getuid?.() === 0;
  if (isRoot) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });

  const base = makeWorkDir("flotilla-git-ssh-");
  const root = join(base, "repos");
  const home = join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const user = userInfo().username;
  const host = "127.0.0.1";

  try {
    const [hostKey, clientKey] = await Promise.all([
      keygen(join(base, "ssh_host_ed25519_key"), "flotilla-test-host"),
      keygen(join(base, "client_ed25519"), "flotilla-test-client"),
    ]);
    const authorizedKeys = join(base, "authorized_keys");
    writeFileSync(authorizedKeys, clientKey.publicKey + "\n", { mode: 0o600 });
    const hostPublic = hostKey.publicKey.split(" ").slice(0, 2).join(" ");

    let started: { child: ChildProcess; stderr: () => string } | undefined;
    let port = 0;
    let lastError: unknown;
    // The free port can be taken between probing and sshd's bind: retry a few times.
    for (let attempt = 0; attempt < 5 && !started; attempt++) {
      port = await freePort();
      const config = join(base, "sshd_config");
      writeFileSync(
        config,
        [
          `Port ${port}`,
          `ListenAddress ${host}`,
          `HostKey ${join(base, "ssh_host_ed25519_key")}`,
          `PidFile ${join(base, "sshd.pid")}`,
          `AuthorizedKeysFile ${authorizedKeys}`,
          "AuthenticationMethods publickey",
          "PubkeyAuthentication yes",
          "PasswordAuthentication no",
          "KbdInteractiveAuthentication no",
          "UsePAM no",
          "StrictModes no",
          "PermitRootLogin prohibit-password",
          `AllowUsers ${user}`,
          "PrintMotd no",
          "PrintLastLog no",
          "X11Forwarding no",
          "AllowTcpForwarding no",
          "AllowAgentForwarding no",
          "PermitTTY no",
          "UseDNS no",
          "LogLevel INFO",
          // The session runs `git-upload-pack '<path>'` via the user's shell; keep git away from the
          // user's real config.
          `SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=${home}`,
          "",
        ].join("\n"),
      );
      try {
        started = await launch(config);
      } catch (err) {
        lastError = err;
        if (!/Address already in use|Cannot bind any address/.test(String(err))) throw err;
      }
    }
    if (!started) throw lastError;
    const { child, stderr } = started;
    // sshd would outlive a test process that exits without close(): kill it on exit.
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);

    const knownHostsLine = `[${host}]:${port} ${hostPublic}`;
    const knownHostsPath = join(base, "known_hosts");
    writeFileSync(knownHostsPath, knownHostsLine + "\n");
    const privateKeyPath = join(base, "client_ed25519");
    const sshCommand = [
      "ssh",
      "-F /dev/null",
      `-i ${privateKeyPath}`,
      "-o IdentitiesOnly=yes",
      `-o UserKnownHostsFile=${knownHostsPath}`,
      "-o StrictHostKeyChecking=yes",
      "-o BatchMode=yes",
      `-p ${port}`,
    ].join(" ");
    const urlFor = (repoPath: string) => `ssh://${user}@${host}:${port}${resolve(repoPath)}`;

    return {
      host,
      port,
      user,
      root,
      urlFor,
      createRepo: async (name) => {
        const bare = repoName(name);
        const path = resolve(root, `${bare}.git`);
        if (!path.startsWith(root + sep)) throw new Error(`invalid repository name: ${name}`);
        await initBareRepo(path);
        return openBareRepo(path, urlFor(path), bare);
      },
      clientKey: { ...clientKey, privateKeyPath },
      knownHostsLine,
      knownHostsPath,
      sshCommand,
      gitEnv: () => gitEnv(undefined, { GIT_SSH_COMMAND: sshCommand }),
      logs: stderr,
      close: async () => {
        process.off("exit", killOnExit);
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(base, { recursive: true, force: true });
    throw err;
  }
}

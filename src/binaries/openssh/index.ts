// OpenSSH's own tools, wrapped once, for what flux does with Go's x/crypto/ssh when it writes a Git
// SSH Secret: the public half of a private key (`ssh-keygen -y`), a new key pair (`ssh-keygen -t`), and
// the server's host key (`ssh-keyscan`), chosen in Go's host-key preference order so known_hosts holds
// the line flux would have written. Passphrases go through a file readable only by us and an askpass
// helper (askpass.ts), never argv.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlotillaError } from "../../util/errors.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { askpassEnv } from "./askpass.js";

export class OpenSshError extends FlotillaError {
  override name = "OpenSshError";
}

function run(binary: string, args: string[], what: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { timeout: 30_000, env: { PATH: process.env.PATH, LANG: "C", ...env } };
    execFile(binary, args, options, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return reject(
          new OpenSshError(`${binary} is not installed: install openssh-client (apt-get install openssh-client)`),
        );
      reject(new OpenSshError(`${what}: ${stderr.trim().split("\n").at(-1) || err.message}`));
    });
  });
}

/** The OpenSSH public key line of a private key file (any format ssh-keygen reads), e.g. "ecdsa-sha2-nistp256 AAAA…". */
export async function publicKeyOf(privateKey: string, passphrase = ""): Promise<string> {
  const dir = makeWorkDir("flotilla-ssh-");
  try {
    const file = join(dir, "id");
    writeFileSync(file, privateKey.endsWith("\n") ? privateKey : `${privateKey}\n`, { mode: 0o600 });
    const out = await run(
      "ssh-keygen",
      ["-y", "-f", file],
      "unable to read the private key",
      askpassEnv(dir, passphrase),
    );
    // ssh-keygen appends the key's comment; flux writes type and key only.
    return out.trim().split(/\s+/).slice(0, 2).join(" ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** A new key pair as flux's defaults make it: ecdsa p384 unless told otherwise. */
export async function generateKeyPair(
  algorithm: "ecdsa" | "ed25519" | "rsa" = "ecdsa",
  bits?: number,
): Promise<KeyPair> {
  const dir = makeWorkDir("flotilla-ssh-");
  try {
    const file = join(dir, "id");
    const size = bits ?? (algorithm === "ecdsa" ? 384 : algorithm === "rsa" ? 2048 : undefined);
    await run(
      "ssh-keygen",
      ["-q", "-t", algorithm, ...(size ? ["-b", String(size)] : []), "-N", "", "-C", "", "-f", file],
      "unable to generate a key pair",
    );
    return {
      privateKey: readFileSync(file, "utf8"),
      publicKey: readFileSync(`${file}.pub`, "utf8").trim().split(/\s+/).slice(0, 2).join(" "),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// x/crypto/ssh's preferred host key algorithms (supportedHostKeyAlgos), most preferred first.
const GO_HOST_KEY_ORDER = [
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "ssh-rsa",
  "ssh-ed25519",
];

/** The known_hosts line for `host[:port]` that Go's ssh client would have accepted first. */
export async function scanHostKey(hostPort: string): Promise<string> {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(hostPort);
  if (!m) throw new OpenSshError(`unable to scan the host key of "${hostPort}": not host or host:port`);
  const host = m[1] ?? m[2]!;
  const port = m[3] ?? "22";
  const out = await run("ssh-keyscan", ["-p", port, "-T", "10", host], `unable to scan the host key of ${hostPort}`);
  const lines = out.split("\n").filter((l) => l && !l.startsWith("#"));
  const pick = GO_HOST_KEY_ORDER.map((t) => lines.find((l) => l.split(" ")[1] === t)).find(Boolean);
  if (!pick) throw new OpenSshError(`unable to scan the host key of ${hostPort}: the server offered none`);
  return pick;
}

/** The same key without its passphrase, for a non-interactive ssh client (kept in memory by the caller). */
export async function withoutPassphrase(privateKey: string, passphrase: string): Promise<string> {
  if (!passphrase) return privateKey;
  const dir = makeWorkDir("flotilla-ssh-");
  try {
    const file = join(dir, "id");
    writeFileSync(file, privateKey.endsWith("\n") ? privateKey : `${privateKey}\n`, { mode: 0o600 });
    const env = askpassEnv(dir, passphrase);
    await run("ssh-keygen", ["-q", "-p", "-N", "", "-f", file], "unable to read the private key", env);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// OpenPGP signatures of commits and tags, checked by the real gpg through `git verify-commit` /
// `git verify-tag`, against only the keys given: each check gets a fresh GNUPGHOME holding just
// those public keys (no agent, no keyserver, no user keyring), removed afterwards.
import { FlotillaError } from "../../util/errors.js";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GitCommandError, type SandboxedGitOptions, sandboxedGitOutput } from "./git-cli.js";
import { makeWorkDir } from "../../util/work-dir.js";

export class SignatureError extends FlotillaError {
  override name = "SignatureError";
  /** The object carries no signature at all (as opposed to one that does not verify). */
  constructor(
    message: string,
    readonly unsigned = false,
  ) {
    super(message);
  }
}

function gpg(args: string[], home: string, input: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("gpg", ["--batch", "--no-tty", "--no-autostart", "--homedir", home, ...args], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GNUPGHOME: home, LC_ALL: "C" },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.once("error", (err) => reject(new SignatureError(`gpg is not available: ${err.message}`)));
    child.once("close", (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** Runs `fn` with a keyring of exactly `armoredKeys`; a key that does not import is an error. */
export async function withKeyring<T>(armoredKeys: string[], fn: (gnupgHome: string) => Promise<T>): Promise<T> {
  const home = makeWorkDir("gnupg-");
  try {
    writeFileSync(join(home, "gpg.conf"), "no-autostart\nno-auto-key-retrieve\n", { mode: 0o600 });
    for (const key of armoredKeys) {
      const { code, stderr } = await gpg(["--import"], home, key);
      if (code !== 0)
        throw new SignatureError(`unable to read armored key ring: ${stderr.trim().split("\n").pop() ?? ""}`);
    }
    return await fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export interface VerifyOptions extends SandboxedGitOptions {
  cwd: string;
  gnupgHome: string;
}

/**
 * Verifies the signature on a commit or tag object; returns the signer's primary key ID (16 hex
 * digits, upper case, as Flux reports it). Unsigned objects and unknown or bad signatures throw.
 */
export async function verifySignature(kind: "commit" | "tag", object: string, o: VerifyOptions): Promise<string> {
  const header = (
    await sandboxedGitOutput(["cat-file", kind, object], { ...o, env: { ...o.env, GNUPGHOME: o.gnupgHome } })
  ).stdout;
  const signed = kind === "commit" ? /^gpgsig /m.test(header) : /-----BEGIN PGP SIGNATURE-----/.test(header);
  if (!signed) throw new SignatureError(`${kind} does not have a PGP signature`, true);
  let status: string;
  try {
    status = (
      await sandboxedGitOutput(["-c", "gpg.program=gpg", `verify-${kind}`, "--raw", object], {
        ...o,
        env: { ...o.env, GNUPGHOME: o.gnupgHome },
      })
    ).stderr;
  } catch (err) {
    if (err instanceof GitCommandError) throw new SignatureError(describeFailure(kind, err.stderr));
    throw err;
  }
  const valid = /^\[GNUPG:\] VALIDSIG (.*)$/m.exec(status);
  if (!valid) throw new SignatureError(describeFailure(kind, status));
  const fields = valid[1]!.trim().split(/\s+/);
  return fields[fields.length - 1]!.slice(-16).toUpperCase();
}

// Flux (go-crypto) does not distinguish an unknown key from a bad signature; neither do we.
function describeFailure(kind: string, status: string): string {
  void status;
  return `unable to verify ${kind} with any of the given key rings`;
}

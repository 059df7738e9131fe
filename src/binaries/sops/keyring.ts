// The private key material of one decryption: a 0700 directory holding an empty HOME and, when the
// Secret has OpenPGP keys, a GNUPGHOME they are imported into by gpg (as kustomize-controller imports
// them into its temporary GnuPG home). Removed, gpg-agent stopped, by close().
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeWorkDir } from "../../util/work-dir.js";
import { SopsError } from "./errors.js";
import { locateGpg } from "./locate.js";
import type { SopsKeys } from "./run.js";

export interface SopsKeyring extends SopsKeys {
  close(): Promise<void>;
}

function gpg(args: string[], home: string, stdin?: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(locateGpg(), ["--batch", "--no-tty", ...args], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GNUPGHOME: home, LC_ALL: "C" },
      stdio: [stdin ? "pipe" : "ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    if (stdin) child.stdin!.on("error", () => {}).end(stdin);
    child.once("error", (e) => reject(new SopsError(`cannot run gpg: ${e.message}`)));
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new SopsError(`gpg ${args[0]} failed: ${err.trim().split("\n").pop()}`)),
    );
  });
}

/**
 * A keyring of `age` identities and armored OpenPGP private keys (`pgp`, name → key). A key gpg
 * cannot import fails with the entry's name, never its content.
 */
export async function openSopsKeyring(age: string[], pgp: Map<string, Uint8Array>): Promise<SopsKeyring> {
  const dir = makeWorkDir("flotilla-sops-");
  const emptyDir = join(dir, "home");
  mkdirSync(emptyDir, { mode: 0o700 });
  let gnupgHome: string | undefined;
  const close = async () => {
    if (gnupgHome) await gpgconfKill(gnupgHome);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (pgp.size) {
      gnupgHome = join(dir, "gnupg");
      mkdirSync(gnupgHome, { mode: 0o700 });
      for (const [name, key] of pgp)
        await gpg(["--import"], gnupgHome, key).catch((e: Error) => {
          throw new SopsError(`cannot import OpenPGP key '${name}': ${e.message}`);
        });
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { age, gnupgHome, emptyDir, close };
}

function gpgconfKill(home: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn("gpgconf", ["--kill", "all"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GNUPGHOME: home },
      stdio: "ignore",
    });
    child.once("error", () => resolve());
    child.once("close", () => resolve());
  });
}

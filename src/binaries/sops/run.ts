// Running `sops decrypt`: the encrypted bytes on stdin, the plaintext on stdout (never a file), an
// argument array (never a shell), and an environment holding only the keys given: age identities in
// SOPS_AGE_KEY, OpenPGP keys in a private GNUPGHOME (keyring.ts), HOME and XDG_CONFIG_HOME pointing
// at an empty directory so no user keys file or .sops.yaml is read, and no key service but the local one.
import { killGroup, spawnInGroup } from "../../util/process-group.js";
import { Semaphore } from "../../util/semaphore.js";
import { SopsError, sopsReason } from "./errors.js";
import { locateSops } from "./locate.js";

/** The formats sops stores: `sops decrypt --input-type/--output-type`. */
export type SopsFormat = "yaml" | "json" | "dotenv" | "ini" | "binary";

export interface SopsKeys {
  /** age identities (AGE-SECRET-KEY-1…, and the post-quantum AGE-SECRET-KEY-PQ-1…), one or more a string. */
  age: string[];
  /** A GNUPGHOME holding the imported OpenPGP private keys (keyring.ts), if any. */
  gnupgHome?: string;
  /** An empty private directory for HOME/XDG_CONFIG_HOME and the working directory. */
  emptyDir: string;
}

export interface SopsDecryptOptions {
  inputType: SopsFormat;
  outputType: SopsFormat;
  /** Skip the MAC check (kustomize-controller's default for built resources: see decision 0036). */
  ignoreMac?: boolean;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const slots = new Semaphore(4);

/** The plaintext of `data`; a SopsError with sops' (redacted) reason when sops refuses it. */
export async function sopsDecrypt(data: Uint8Array, keys: SopsKeys, o: SopsDecryptOptions): Promise<Buffer> {
  const binary = locateSops();
  const args = ["decrypt", "--input-type", o.inputType, "--output-type", o.outputType];
  if (o.ignoreMac) args.push("--ignore-mac");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: keys.emptyDir,
    XDG_CONFIG_HOME: keys.emptyDir,
    LC_ALL: "C",
  };
  if (keys.age.length) env.SOPS_AGE_KEY = keys.age.join("\n");
  if (keys.gnupgHome) env.GNUPGHOME = keys.gnupgHome;
  const release = await slots.acquire();
  try {
    return await spawnSops(binary, args, env, data, keys.emptyDir, o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  } finally {
    release();
  }
}

function spawnSops(
  binary: string,
  args: string[],
  env: Record<string, string>,
  data: Uint8Array,
  cwd: string,
  timeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnInGroup(binary, args, { env, cwd, shell: false, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    let timedOut = false;
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin!.on("error", () => {}).end(data);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, "SIGKILL");
    }, timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new SopsError(`cannot run ${binary}: ${err.message}`));
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new SopsError(`sops decrypt timed out after ${timeoutMs / 1000}s`));
      else if (code !== 0) reject(new SopsError(sopsReason(stderr)));
      else resolve(Buffer.concat(out));
    });
  });
}

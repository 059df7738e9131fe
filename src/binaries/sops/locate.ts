// Finding sops (and gpg, which sops runs for OpenPGP keys). Lookup order: the pinned toolchain
// ($FLOTILLA_TOOLS_DIR/bin/sops, else ~/.cache/flotilla/tools/bin/sops), then `sops` on PATH (a container
// image). A missing sops fails loudly with what to do: decryption never falls back to anything else.
import { join } from "node:path";
import { executable, onPath, toolsDir } from "../tools-dir.js";
import { SopsNotFoundError } from "./errors.js";

/** The sops binary to run, as an absolute path. */
export function locateSops(env: NodeJS.ProcessEnv = process.env): string {
  const pinned = join(toolsDir(env), "bin", "sops");
  if (executable(pinned)) return pinned;
  const found = onPath("sops", env);
  if (found) return found;
  throw new SopsNotFoundError(
    `sops not found: not at ${pinned} nor on PATH; build the pinned one with \`bash tools/build.sh sops\` ` +
      `(or set FLOTILLA_TOOLS_DIR), or install sops v3.10 or newer on PATH`,
  );
}

/** gpg, for the OpenPGP keys of a decryption Secret. */
export function locateGpg(env: NodeJS.ProcessEnv = process.env): string {
  const found = onPath("gpg", env);
  if (found) return found;
  throw new SopsNotFoundError(
    "gpg not found on PATH: OpenPGP (*.asc) decryption keys need GnuPG (apt-get install gnupg)",
  );
}

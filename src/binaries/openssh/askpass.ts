// How ssh-keygen gets a key's passphrase without it ever being on a command line (`-P` would put it in
// /proc/<pid>/cmdline, which every local user can read with ps): SSH_ASKPASS_REQUIRE=force makes
// ssh-keygen run SSH_ASKPASS and read the passphrase from its output. The helper is a script in the
// operation's private directory (0700) that prints a 0600 file next to it; neither the script, its
// arguments nor the environment hold the passphrase itself.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlotillaError } from "../../util/errors.js";

export class PassphraseError extends FlotillaError {
  override name = "PassphraseError";
}

// ssh-keygen keeps what the helper prints up to the first line break, at most 1023 bytes.
const MAX_PASSPHRASE_BYTES = 1023;

/** The environment that makes ssh-keygen ask for `passphrase` through a helper written into `dir`. */
export function askpassEnv(dir: string, passphrase: string): Record<string, string> {
  if (/[\r\n]/.test(passphrase))
    throw new PassphraseError("the key's passphrase has a line break, which ssh-keygen cannot be given");
  if (Buffer.byteLength(passphrase) > MAX_PASSPHRASE_BYTES)
    throw new PassphraseError(`the key's passphrase is longer than ssh-keygen reads (${MAX_PASSPHRASE_BYTES} bytes)`);
  writeFileSync(join(dir, "passphrase"), passphrase, { mode: 0o600 });
  const helper = join(dir, "askpass");
  // The file is found next to the script ($0 is its absolute path), so no path is interpolated into it.
  writeFileSync(helper, '#!/bin/sh\nexec cat -- "$(dirname -- "$0")/passphrase"\n', { mode: 0o700 });
  return { SSH_ASKPASS: helper, SSH_ASKPASS_REQUIRE: "force" };
}

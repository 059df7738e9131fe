// A key's passphrase never reaches ssh-keygen's command line or environment: the real ssh-keygen is
// watched while it runs through /proc (its cmdline is what any local user's `ps` shows). The key is made
// with many KDF rounds so that each ssh-keygen run lasts long enough (about a second) to be seen.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicKeyOf, withoutPassphrase } from "../../src/binaries/openssh/index.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const passphrase = `pp-${randomBytes(8).toString("hex")}`;
let dir: string;
let locked: string;
let publicKey: string;

interface Seen {
  cmdline: string;
  environ: string;
}

/** Our ssh-keygen children, by pid, with their argv and environment as /proc shows them, sampled every 5 ms. */
function watchSshKeygen(): { stop(): Seen[] } {
  const seen = new Map<string, Seen>();
  const sample = () => {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = /^\d+ \((.*)\) \S (\d+) /.exec(readFileSync(`/proc/${pid}/stat`, "utf8"));
        if (stat?.[1] !== "ssh-keygen" || Number(stat[2]) !== process.pid) continue;
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").join(" ");
        if (cmdline) seen.set(pid, { cmdline, environ });
      } catch {
        // gone between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, 5);
  return {
    stop() {
      clearInterval(timer);
      return [...seen.values()];
    },
  };
}

beforeAll(() => {
  dir = makeWorkDir("openssh-argv-");
  const file = join(dir, "id");
  // The test's own key, made here with the passphrase on argv (before any watching starts).
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-a", "100", "-N", passphrase, "-C", "", "-f", file]);
  locked = readFileSync(file, "utf8");
  publicKey = readFileSync(`${file}.pub`, "utf8").trim();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ssh-keygen and a key's passphrase", () => {
  it("reads the public half of a passphrase-protected key with the passphrase in neither argv nor environment", async () => {
    const watch = watchSshKeygen();
    const got = await publicKeyOf(locked, passphrase);
    const seen = watch.stop();
    expect(got).toBe(publicKey);
    // Positive evidence that the watch saw the real process, with the key file on its command line.
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.cmdline).not.toContain(passphrase);
      expect(s.environ).not.toContain(passphrase);
    }
    expect(seen.map((s) => s.cmdline.split(" /")[0])).toContain("ssh-keygen -y -f");
  });

  it("takes the passphrase off a key with the passphrase in neither argv nor environment", async () => {
    const watch = watchSshKeygen();
    const open = await withoutPassphrase(locked, passphrase);
    const seen = watch.stop();
    expect(await publicKeyOf(open)).toBe(publicKey);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.cmdline).not.toContain(passphrase);
      expect(s.environ).not.toContain(passphrase);
    }
  });

  it("still refuses a wrong passphrase with ssh-keygen's one line", async () => {
    await expect(publicKeyOf(locked, "wrong")).rejects.toThrow(/^unable to read the private key: .*passphrase/);
  });

  it("refuses a passphrase with a line break, which the askpass helper could not hand over whole", async () => {
    await expect(publicKeyOf(locked, `${passphrase}\nmore`)).rejects.toThrow(
      "the key's passphrase has a line break, which ssh-keygen cannot be given",
    );
  });
});

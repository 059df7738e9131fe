import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../../util/work-dir.js";
import { keyringOfFiles } from "./decryption-keys.js";

const dir = makeWorkDir("flotilla-decryption-keys-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("--decryption-key files", () => {
  it("an age key file gives its identities, comments and blank lines dropped, as age reads it", async () => {
    const k = file(
      "a.agekey",
      "# created: 2026-11-27\n# public key: age1xyz\nAGE-SECRET-KEY-1AAA\n\nAGE-SECRET-KEY-PQ-1BBB\n",
    );
    const keyring = await keyringOfFiles([k]);
    try {
      expect(keyring.age).toEqual(["AGE-SECRET-KEY-1AAA", "AGE-SECRET-KEY-PQ-1BBB"]);
      expect(keyring.gnupgHome).toBeUndefined();
    } finally {
      await keyring.close();
    }
  });

  it("a file that is neither is refused naming it, its content never echoed", async () => {
    const k = file("notes.txt", "password=do-not-echo-me\n");
    await expect(keyringOfFiles([k])).rejects.toThrow(
      new RegExp(`^--decryption-key ${k}: not an age identity file .* nor an armored OpenPGP private key`),
    );
    await expect(keyringOfFiles([k])).rejects.not.toThrow(/do-not-echo-me/);
  });

  it("a missing file is refused naming it", async () => {
    await expect(keyringOfFiles([join(dir, "absent.agekey")])).rejects.toThrow(
      /absent\.agekey: cannot read it: ENOENT/,
    );
  });
});

import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ArtifactStorageError } from "./errors.js";
import { Storage } from "./storage.js";
import { makeWorkDir } from "../../util/work-dir.js";

const root = makeWorkDir("flotilla-storage-unit-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("artifact storage", () => {
  it("a write that fails leaves no temporary file and the previous artifact untouched", () => {
    const storage = new Storage(root, "http://artifacts");
    const previous = storage.store("gitrepository/ns/app/old.tar.gz", Buffer.from("v1"), "main@sha1:1");
    // A non-empty directory where the new artifact should land: the rename into place fails, as a
    // full disk fails the write (the e2e fault suite fills a real tmpfs).
    mkdirSync(join(root, "gitrepository/ns/app/new.tar.gz"));
    writeFileSync(join(root, "gitrepository/ns/app/new.tar.gz/blocker"), "");
    const err = (() => {
      try {
        storage.store("gitrepository/ns/app/new.tar.gz", Buffer.from("v2"), "main@sha1:2");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ArtifactStorageError);
    expect((err as Error).message).toMatch(/^unable to archive artifact to storage: /);
    expect(readdirSync(join(root, "gitrepository/ns/app")).sort()).toEqual(["new.tar.gz", "old.tar.gz"]);
    expect(storage.read(previous)?.toString()).toBe("v1");
  });
});

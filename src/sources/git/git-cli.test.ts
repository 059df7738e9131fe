import { describe, expect, it } from "vitest";
import { isAuthFailure } from "./git-cli.js";

describe("isAuthFailure", () => {
  it.each([
    "fatal: unable to access 'http://127.0.0.1:8080/r.git/': The requested URL returned error: 401",
    "fatal: unable to access 'http://127.0.0.1:8080/r.git/': The requested URL returned error: 403",
    "fatal: Authentication failed for 'http://127.0.0.1:8080/r.git/'",
    "fatal: could not read Username for 'http://127.0.0.1:8080': terminal prompts disabled",
    "git@127.0.0.1: Permission denied (publickey).",
    "Host key verification failed.",
  ])("names a refused credential as an auth failure: %s", (stderr) => {
    expect(isAuthFailure(stderr)).toBe(true);
  });

  it.each([
    "fatal: unable to access 'http://127.0.0.1:40367/r.git/': Failed to connect to 127.0.0.1 port 40367 after 0 ms: Couldn't connect to server",
    "fatal: unable to access 'http://127.0.0.1:14013/r.git/': Failed to connect to 127.0.0.1 port 14013: Connection refused",
    "fatal: unable to access 'http://127.0.0.1:8080/r.git/': The requested URL returned error: 404",
    "fatal: remote error: upload-pack: not our ref 4010403abc",
  ])("does not call a connection or other failure an auth failure: %s", (stderr) => {
    expect(isAuthFailure(stderr)).toBe(false);
  });
});

// `flotilla controller --dashboard-addr`: the dashboard runs as the controller's own identity, so beyond
// loopback it needs a bearer token (--dashboard-token-file, e.g. a mounted Secret's key); bound to
// 127.0.0.1 or ::1 only this machine reaches it and the token is optional (decision 0032).
import { readFileSync } from "node:fs";
import { isLoopbackAddress } from "../../../dashboard/auth.js";
import { UsageError } from "../../errors.js";

const MIN_TOKEN_LENGTH = 16;

/** The token to require, or undefined on loopback without one; a UsageError when it cannot be served. */
export function dashboardToken(address: string, host: string, tokenFile: string | undefined): string | undefined {
  if (tokenFile === undefined) {
    if (isLoopbackAddress(host)) return undefined;
    throw new UsageError(
      `--dashboard-addr ${address} listens beyond loopback, where anyone who reaches it reads the fleet as the controller's identity: give --dashboard-token-file <file> (a bearer token of at least ${MIN_TOKEN_LENGTH} characters), or bind 127.0.0.1`,
    );
  }
  let token: string;
  try {
    token = readFileSync(tokenFile, "utf8").trim();
  } catch (err) {
    throw new UsageError(`--dashboard-token-file ${tokenFile}: ${(err as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  // The length only: the value is never printed.
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
    throw new UsageError(
      `--dashboard-token-file ${tokenFile}: the token must be at least ${MIN_TOKEN_LENGTH} characters with no spaces (it has ${token.length})`,
    );
  return token;
}

// What the commit-status providers share, as notification-controller v1.9.3 writes it (util.go,
// provider_commit_status.go): the repository from the Provider's address (parseGitAddress, with
// chainguard-dev/git-urls' forms: https, ssh://, scp-like git@host:owner/repo), the status key
// `<kind>/<name>/<first block of the Provider's UID>` lower-cased, the commit from the event's revision
// (fluxcd/pkg/git: the hash after the last ':', 40 hex digits), and the description: the reason split
// at its camel-case humps, lower-cased ("ReconciliationSucceeded" → "reconciliation succeeded").
import { createHash } from "node:crypto";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { NotificationError, ProviderInvalid } from "../errors.js";
import type { ProviderSettings } from "./types.js";

export interface GitAddress {
  /** scheme://host[:port] (ssh becomes https, as Flux does). */
  host: string;
  /** The path without its leading slashes and its .git suffix. */
  id: string;
}

const SCP_LIKE = /^(?:[\w.-]+@)?([\w.-]+):(?!\/\/)(.*)$/;

export function parseGitAddress(address: string): GitAddress | undefined {
  let scheme: string;
  let host: string;
  let path: string;
  const scp = SCP_LIKE.exec(address);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(address) && scp) {
    scheme = "ssh";
    host = scp[1]!;
    path = scp[2]!;
  } else {
    let u: URL;
    try {
      u = new URL(address);
    } catch {
      return undefined;
    }
    scheme = u.protocol.slice(0, -1);
    host = u.host;
    path = decodeURIComponent(u.pathname);
  }
  if (scheme === "ssh") scheme = "https";
  const id = path.replace(/^\/+/, "").replace(/\.git$/, "");
  return { host: `${scheme}://${host}`, id };
}

/** owner and repository from the address, or the Provider is refused (Flux: invalid repository id). */
export function ownerAndRepo(type: string, s: ProviderSettings): { host: string; owner: string; repo: string } {
  const parsed = parseGitAddress(s.address);
  if (!parsed)
    throw new ProviderInvalid(`${type}: the provider's address is not a Git repository URL`, "InvalidAddress");
  const parts = parsed.id.split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw new ProviderInvalid(
      `${type}: invalid repository id '${parsed.id}': the address must name <owner>/<repository> (e.g. https://github.com/org/app)`,
      "InvalidAddress",
    );
  return { host: parsed.host, owner: parts[0], repo: parts[1] };
}

/** The token, or the Provider is refused naming the Secret key to set (never its value). */
export function requireToken(type: string, s: ProviderSettings): string {
  const token = s.token || s.password;
  if (!token)
    throw new ProviderInvalid(
      `${type} token cannot be empty: set the 'token' key of the Secret named by spec.secretRef`,
      "TokenNotSet",
    );
  return token;
}

/** Flux's generateDefaultCommitStatus. */
export function commitStatusKey(event: FluxEvent, providerUid: string | undefined): string {
  const uidHead = (providerUid ?? "").split("-")[0];
  return `${event.involvedObject.kind ?? ""}/${event.involvedObject.name ?? ""}/${uidHead}`.toLowerCase();
}

/** eventv1.Event.GetRevision: commit, then originRevision, then revision (keys already stripped of groups). */
export function revisionOf(event: FluxEvent): string | undefined {
  const m = event.metadata ?? {};
  return m.commit ?? m.originRevision ?? m.revision;
}

/** fluxcd/pkg/git TransformRevision then ExtractHashFromRevision; only a SHA-1 hash is accepted. */
export function commitOf(event: FluxEvent): string {
  const rev = revisionOf(event);
  if (rev === undefined) throw new NotificationError("missing revision metadata");
  let hash: string;
  if (rev.includes(":")) hash = rev.slice(rev.lastIndexOf(":") + 1);
  else {
    const parts = rev.split("/");
    hash = parts.length > 1 ? parts[parts.length - 1]! : rev;
  }
  if (hash.length !== 40) throw new NotificationError(`failed to extract commit hash from '${rev}' revision`);
  return hash;
}

/** Go's splitCamelcase (fatih/camelcase): runs of lower, upper, digit, other; an upper run gives its last letter to a following lower run. */
export function splitCamelcase(src: string): string[] {
  const classOf = (c: string) => (/\p{Ll}/u.test(c) ? 1 : /\p{Lu}/u.test(c) ? 2 : /\p{Nd}/u.test(c) ? 3 : 4);
  const runs: string[][] = [];
  let last = 0;
  for (const c of src) {
    const k = classOf(c);
    if (k === last) runs[runs.length - 1]!.push(c);
    else runs.push([c]);
    last = k;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    if (classOf(runs[i]![0]!) === 2 && classOf(runs[i + 1]![0]!) === 1) {
      runs[i + 1]!.unshift(runs[i]!.pop()!);
    }
  }
  return runs.filter((r) => r.length).map((r) => r.join(""));
}

/** formatNameAndDescription: `kind/name` and the reason in words, both lower case. */
export function nameAndDescription(event: FluxEvent): { name: string; description: string } {
  return {
    name: `${event.involvedObject.kind ?? ""}/${event.involvedObject.name ?? ""}`.toLowerCase(),
    description: splitCamelcase(event.reason).join(" ").toLowerCase(),
  };
}

export const sha1Hex = (s: string) => createHash("sha1").update(s).digest("hex");

/** Success for info, failure for error (the forges' severity mapping). */
export function severityState<T>(event: FluxEvent, info: T, error: T, type: string): T {
  if (event.severity === "info") return info;
  if (event.severity === "error") return error;
  throw new NotificationError(`can't convert to ${type} state`);
}

export const isProgressing = (event: FluxEvent) => event.reason === "Progressing";

/** Parses a JSON answer; an answer that does not parse is "no status there". */
export function jsonOf<T>(body: string): T | undefined {
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}

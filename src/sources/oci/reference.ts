// OCI artifact URLs as Flux reads them: `oci://<registry>/<repository>[:tag][@sha256:<hex>]`, parsed
// by go-containerregistry's name rules (fluxcd/pkg/oci url.go → name.ParseReference): the first path
// segment is the registry only if it holds a "." or ":" (or is localhost), otherwise the registry is
// Docker Hub; repository characters `a-z0-9_-./` (2-255), tags `\w.-` (1-128), sha256 digests only.
import { OciError } from "./errors.js";

export interface OciReference {
  /** host[:port] */
  registry: string;
  repository: string;
  tag?: string;
  digest?: string;
}

export const OCI_URL_PREFIX = "oci://";
const DOCKER_HUB = "index.docker.io";
const REPOSITORY_CHARS = /^[a-z0-9_\-./]{2,255}$/;
const TAG = /^[A-Za-z0-9_.-]{1,128}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
// An RFC 3986 authority without userinfo: a host name, an IPv4 address or a bracketed IPv6 one, an optional port.
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(:\d*)?$/;

export class InvalidOciUrlError extends OciError {
  override name = "InvalidOciUrlError";
}

const bad = (url: string, why: string) =>
  new InvalidOciUrlError(
    `invalid OCI URL '${url}': ${why}; expected oci://<registry>/<repository>[:<tag>|@sha256:<digest>]`,
  );

/** Parses an oci:// URL; a clear error naming the URL for anything Flux would refuse. */
export function parseOciUrl(url: string): OciReference {
  if (!url.startsWith(OCI_URL_PREFIX)) throw bad(url, "the URL must start with oci://");
  let rest = url.slice(OCI_URL_PREFIX.length);
  let digest: string | undefined;
  const at = rest.split("@");
  if (at.length > 2) throw bad(url, "more than one '@'");
  if (at.length === 2) {
    digest = at[1]!;
    if (!DIGEST.test(digest)) throw bad(url, `'${digest}' is not a sha256 digest (sha256:<64 lowercase hex>)`);
    rest = at[0]!;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(":");
  // A colon after the last slash separates a tag; one before it is the registry's port.
  if (colon >= 0 && !rest.slice(colon + 1).includes("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tag) throw bad(url, "no tag after the colon");
    if (!TAG.test(tag)) throw bad(url, `tag '${tag}' may hold only letters, digits, '_', '.' and '-' (at most 128)`);
  }
  let registry = DOCKER_HUB;
  let repository = rest;
  const slash = rest.indexOf("/");
  const first = slash >= 0 ? rest.slice(0, slash) : "";
  if (slash >= 0 && (first.includes(".") || first.includes(":") || first === "localhost")) {
    registry = first;
    repository = rest.slice(slash + 1);
    if (!AUTHORITY.test(registry)) throw bad(url, `'${registry}' is not a registry host[:port]`);
  } else if (!repository.includes("/")) {
    repository = `library/${repository}`; // Docker Hub's implicit namespace
  }
  if (registry === "docker.io") registry = DOCKER_HUB;
  if (!repository) throw bad(url, "no repository after the registry");
  if (
    !REPOSITORY_CHARS.test(repository) ||
    repository.startsWith("/") ||
    repository.endsWith("/") ||
    repository.includes("//")
  )
    throw bad(url, `repository '${repository}' may hold only lowercase letters, digits, '_', '-', '.' and '/' (2-255)`);
  return { registry, repository, ...(tag !== undefined ? { tag } : {}), ...(digest ? { digest } : {}) };
}

export function formatOciUrl(r: OciReference): string {
  return `${OCI_URL_PREFIX}${r.registry}/${r.repository}${r.tag ? `:${r.tag}` : ""}${r.digest ? `@${r.digest}` : ""}`;
}

/** The reference a registry API call names: the digest if pinned, else the tag (Flux's default "latest"). */
export const referenceOf = (r: OciReference): string => r.digest ?? r.tag ?? "latest";

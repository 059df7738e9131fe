// An in-memory stand-in for KubeClient's object verbs (get, list by label, create, update, merge
// patch, delete), for unit tests of a controller's decisions: what it reads and writes, never how an
// API server validates, defaults, applies or watches — that stays proven against the real planes
// (test/e2e). Paths are the client's own (/api/v1/namespaces/NS/secrets/NAME, /apis/G/V/...).
import type { KubeObject } from "../../api/meta/object.js";
import type { KubeClient, PatchType, Query } from "../client.js";
import { type ApiStatus, ConflictError, AlreadyExistsError, NotFoundError } from "../errors.js";

type Stored = KubeObject & { metadata: { resourceVersion?: string } };

const CLUSTER = "in-memory";

function apiError<E>(
  Kind: new (...a: ConstructorParameters<typeof NotFoundError>) => E,
  code: number,
  method: string,
  path: string,
  message: string,
): E {
  const status: ApiStatus = { message, code } as ApiStatus;
  return new Kind(CLUSTER, code, Kind.name.replace(/Error$/, ""), status, { method, path });
}

/** /api/v1/namespaces/NS/secrets and /apis/G/V/RES are collections; one more segment names an object. */
function isCollection(path: string): boolean {
  const segments = path.split("/").slice(1);
  let rest = segments.slice(segments[0] === "api" ? 2 : 3);
  if (rest[0] === "namespaces" && rest.length >= 3) rest = rest.slice(2);
  return rest.length === 1;
}

/** `a=b,c` (equality and existence terms, as the controllers use them) against labels. */
function matches(selector: string | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  return selector.split(",").every((term) => {
    const [key, value] = term.split("=") as [string, string | undefined];
    return value === undefined ? key in labels : labels[key] === value;
  });
}

export class InMemoryKube {
  /** Every object by its path. */
  readonly objects = new Map<string, Stored>();
  /** Each write, `VERB path`, in order: what a decision did. */
  readonly writes: string[] = [];
  private version = 0;

  /** The client to hand to code under test (only the verbs above answer). */
  get client(): KubeClient {
    return this as unknown as KubeClient;
  }

  /** Objects under a collection path, in creation order. */
  list<T = KubeObject>(collectionPath: string): T[] {
    const prefix = `${collectionPath}/`;
    return [...this.objects]
      .filter(([p]) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
      .map(([, o]) => structuredClone(o) as T);
  }

  async get<T = unknown>(path: string, query?: Query): Promise<T> {
    const found = this.objects.get(path);
    if (found) return structuredClone(found) as T;
    if (!isCollection(path)) throw apiError(NotFoundError, 404, "GET", path, `${path} not found`);
    const selector = query?.labelSelector as string | undefined;
    return { items: this.list<Stored>(path).filter((o) => matches(selector, o.metadata.labels)) } as T;
  }

  async create<T = unknown>(collectionPath: string, object: unknown): Promise<T> {
    const o = structuredClone(object) as Stored;
    const path = `${collectionPath}/${o.metadata.name}`;
    if (this.objects.has(path))
      throw apiError(AlreadyExistsError, 409, "POST", path, `${o.metadata.name} already exists`);
    return this.store("POST", path, o) as T;
  }

  async update<T = unknown>(path: string, object: unknown): Promise<T> {
    const o = structuredClone(object) as Stored;
    const current = this.objects.get(path);
    if (!current) throw apiError(NotFoundError, 404, "PUT", path, `${path} not found`);
    const rv = o.metadata.resourceVersion;
    if (rv && rv !== current.metadata.resourceVersion)
      throw apiError(ConflictError, 409, "PUT", path, `the object has been modified (${path})`);
    return this.store("PUT", path, o) as T;
  }

  async patch<T = unknown>(path: string, type: PatchType, patch: unknown): Promise<T> {
    if (type !== "merge") throw new Error(`in-memory kube: ${type} patch not supported`);
    const current = this.objects.get(path);
    if (!current) throw apiError(NotFoundError, 404, "PATCH", path, `${path} not found`);
    return this.store("PATCH", path, mergePatch(structuredClone(current), patch) as Stored) as T;
  }

  async delete<T = unknown>(path: string): Promise<T> {
    const current = this.objects.get(path);
    if (!current) throw apiError(NotFoundError, 404, "DELETE", path, `${path} not found`);
    this.objects.delete(path);
    this.writes.push(`DELETE ${path}`);
    return current as T;
  }

  private store(verb: string, path: string, o: Stored): Stored {
    o.metadata.resourceVersion = String(++this.version);
    this.objects.set(path, o);
    this.writes.push(`${verb} ${path}`);
    return structuredClone(o);
  }
}

/** RFC 7386: null removes, objects merge, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

// Helm repository indexes: download with the repository's credentials, parse, and choose a chart
// version the way helm does (highest version satisfying the constraint; `*` means latest stable).
import { parseBoundedYaml } from "../../util/yaml-nesting.js";
import { maxSatisfying } from "../semver.js";
import { Agent, fetch as undiciFetch } from "undici";
import type { TlsMaterial } from "./tls.js";
import { readCapped } from "../../util/read-capped.js";
import { formatBytes } from "../artifact/limits.js";

export interface ChartVersionEntry {
  name: string;
  version: string;
  urls: string[];
  digest?: string;
  created?: string;
  appVersion?: string;
}

export interface HelmIndex {
  apiVersion: string;
  entries: Record<string, ChartVersionEntry[]>;
}

export interface BasicAuth {
  username: string;
  password: string;
}

/** Trailing slash normalised, as Flux does, so relative chart URLs resolve against it. */
export const normalizeRepoUrl = (url: string) => `${url.replace(/\/+$/, "")}/`;

/**
 * GET `url` within `timeoutMs` (the body included), streamed and stopped past `maxBytes`. `what`
 * words the size error: an index keeps Flux's message, a chart names the limit.
 */
export async function download(
  url: string,
  auth: BasicAuth | undefined,
  timeoutMs: number,
  maxBytes: number,
  tls?: TlsMaterial,
  what: "index" | "chart" = "index",
): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  // A private CA or a client certificate: a dispatcher of its own for this download.
  const dispatcher = tls ? new Agent({ connect: { ca: tls.ca, cert: tls.cert, key: tls.key } }) : undefined;
  try {
    const res = await undiciFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), dispatcher });
    if (!res.ok) throw new Error(`failed to fetch ${url} : ${res.status} ${res.statusText}`);
    return await readCapped(res, maxBytes, () =>
      what === "index"
        ? `index exceeds the maximum index file size of ${maxBytes} bytes`
        : `chart from ${url} is larger than ${formatBytes(maxBytes)}, the largest chart flotilla downloads`,
    );
  } catch (err) {
    // undici says "fetch failed" and keeps the reason (a certificate problem, a refused connection) in cause.
    const cause = (err as Error & { cause?: Error }).cause;
    if (cause?.message && !(err as Error).message.includes(cause.message))
      throw new Error(`failed to fetch ${url} : ${cause.message}`, { cause: err });
    throw err;
  } finally {
    await dispatcher?.close();
  }
}

export function parseIndex(data: Buffer): HelmIndex {
  const text = data.toString("utf8");
  let index: HelmIndex;
  try {
    index = JSON.parse(text) as HelmIndex;
  } catch {
    index = parseBoundedYaml(text, "the repository index") as HelmIndex;
  }
  if (!index || typeof index !== "object" || !index.apiVersion) throw new Error("no API version specified");
  index.entries ??= {};
  return index;
}

export function selectChartVersion(index: HelmIndex, chart: string, constraint: string): ChartVersionEntry {
  const entries = index.entries[chart];
  if (!entries?.length) throw new Error(`no chart name found: ${chart}`);
  const wanted = constraint || "*";
  const exact = entries.find((e) => e.version === wanted);
  if (exact) return exact;
  const version = maxSatisfying(
    entries.map((e) => e.version),
    wanted,
  );
  if (!version) throw new Error(`no '${chart}' chart with version matching '${wanted}' found`);
  return entries.find((e) => e.version === version)!;
}

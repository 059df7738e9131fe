// Reading a registry's answers: bodies under a cap (refused at the first byte past it, or at once when
// the announced length is over it), JSON bodies, and the `Link: <...>; rel="next"` of paginated lists.
import { OciError, OciProtocolError, OciTooLargeError, OciUnreachableError } from "./errors.js";
import type { Response } from "./transport.js";
import { formatBytes } from "../artifact/limits.js";

/** The body, refused as soon as more than `maxBytes` arrive (or are announced). */
export async function readCapped(res: Response, maxBytes: number, what: string, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new OciTooLargeError(`${what} is larger than ${formatBytes(maxBytes)}, the limit for it`);
  const declared = Number(res.headers["content-length"] ?? NaN);
  if (declared > maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(); // leaving the loop destroys the stream
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof OciTooLargeError) throw err;
    if (signal.aborted)
      throw new OciUnreachableError(`${what}: the registry did not finish sending it within the timeout`);
    throw new OciError(`${what}: the download broke off (${(err as Error).message})`);
  }
  return Buffer.concat(chunks, total);
}

export async function readJson(res: Response, maxBytes: number, what: string, registry: string, signal: AbortSignal) {
  const data = await readCapped(res, maxBytes, what, signal);
  try {
    return JSON.parse(data.toString("utf8"));
  } catch {
    throw new OciProtocolError(`registry ${registry} answered ${what} with something that is not JSON`);
  }
}

/** The next page's path from a Link header (relative, or absolute on the same registry), or undefined on the last page. */
export function nextLink(link: string | undefined, current: string, registry: string): string | undefined {
  if (!link) return undefined;
  const m = /<([^>]+)>\s*;[^,]*rel="?next"?/.exec(link);
  if (!m) return undefined;
  const target = new URL(m[1]!, `http://${registry}${current}`);
  // Credentials and the page cap are per registry: a list continued elsewhere is refused, not cut short.
  if (target.host !== registry)
    throw new OciProtocolError(
      `registry ${registry} points the next page of tags at another host (${target.host}): refused`,
    );
  return `${target.pathname}${target.search}`;
}

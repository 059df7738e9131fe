// Reads an HTTP response body up to a size cap, chunk by chunk, and stops (cancelling the stream)
// at the first byte past it: a tenant's URL answering with gigabytes costs the controller at most
// the cap, never the whole response in memory first (issue 28).
import { FlotillaError } from "./errors.js";

export class ResponseTooLargeError extends FlotillaError {
  override name = "ResponseTooLargeError";
}

interface BodyLike {
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
}

/** The body's bytes, or ResponseTooLargeError(`tooLarge()`) as soon as more than `maxBytes` arrive. */
export async function readCapped(res: BodyLike, maxBytes: number, tooLarge: () => string): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  const body = res.body as (AsyncIterable<Uint8Array> & { cancel?: () => Promise<void> }) | null;
  if (declared > maxBytes) {
    await body?.cancel?.().catch(() => undefined);
    throw new ResponseTooLargeError(tooLarge());
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!body) return Buffer.alloc(0);
  for await (const chunk of body) {
    total += chunk.length;
    // Leaving the loop early cancels the stream: the rest is never read.
    if (total > maxBytes) throw new ResponseTooLargeError(tooLarge());
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, total);
}

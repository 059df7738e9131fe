// Helm's release record as its Secret storage driver keeps it (helm pkg/storage/driver/util.go):
// the release as JSON, gzipped, base64-encoded — and that text is the Secret's `release` key, which the
// API base64-encodes once more. Helm reads records that are not gzipped too; so do we.
import { gunzipSync, gzipSync } from "node:zlib";

const GZIP_MAGIC = [0x1f, 0x8b, 0x08];

/** A Secret's data.release (as the API returns it) → the release JSON object. */
export function decodeRelease(secretData: string): Record<string, unknown> {
  const helmText = Buffer.from(secretData, "base64").toString("utf8");
  let bytes = Buffer.from(helmText, "base64");
  if (GZIP_MAGIC.every((b, i) => bytes[i] === b)) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
}

/** The inverse of decodeRelease: what to put in a Secret's data.release. */
export function encodeRelease(release: unknown): string {
  const helmText = gzipSync(Buffer.from(JSON.stringify(release), "utf8")).toString("base64");
  return Buffer.from(helmText, "utf8").toString("base64");
}

// What running sops can fail with. Messages never carry a value sops printed: sops quotes the
// offending input ("Input string ... does not match") and the computed MAC, a hash of the plaintext.
import { FlotillaError } from "../../util/errors.js";

export class SopsError extends FlotillaError {
  override name = "SopsError";
}
export class SopsNotFoundError extends SopsError {
  override name = "SopsNotFoundError";
}

/**
 * sops' stderr as one line fit for a status message: its first sentences, with quoted input, long
 * hex runs (MACs) and base64 runs (ciphertexts) replaced by <redacted>.
 */
export function sopsReason(stderr: string): string {
  const text = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ")
    .replace(
      /Input string .* does not match sops' data format/g,
      "Input string <redacted> does not match sops' data format",
    )
    .replace(/\b[0-9A-Fa-f]{32,}\b/g, "<redacted>")
    .replace(/ENC\[[^\]]*\]/g, "ENC[<redacted>]")
    .replace(/[A-Za-z0-9+/=]{40,}/g, "<redacted>");
  return text.length > 600 ? `${text.slice(0, 600)}…` : text || "sops failed without a message";
}

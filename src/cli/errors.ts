// Mistakes on the command line itself (a flag's value, a missing argument). They extend the one error
// root, so main.ts prints them as one `✗` line with exit code 1, never as "unexpected error".
import { FlotillaError } from "../util/errors.js";

export class UsageError extends FlotillaError {
  override name = "UsageError";
}

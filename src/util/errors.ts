// The one error root users see. Every layer's error family extends FlotillaError, so the CLI can tell a
// problem the user can act on (printed as one `✗ <what is wrong and what to do>` line) from a bug
// (printed as "unexpected error", with the stack under --verbose).

export class FlotillaError extends Error {
  override name = "FlotillaError";
}

/** True for an error flotilla raised on purpose: its message is meant for the user as is. */
export function isFlotillaError(err: unknown): err is FlotillaError {
  return err instanceof FlotillaError;
}

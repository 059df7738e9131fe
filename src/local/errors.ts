// Errors of the local fleet. Each message is one line that names what failed and what to do;
// the CLI prints it as is and exits non-zero.
import { FlotillaError } from "../util/errors.js";

export class LocalFleetError extends FlotillaError {
  // Each subclass is named by its class, so a new one cannot carry a copied, wrong name.
  override name: string = this.constructor.name;
}

/** A flag or argument the user gave is not usable. */
export class InvalidFleetOptionError extends LocalFleetError {}

/** The fleet directory cannot be created or written. */
export class FleetDirectoryError extends LocalFleetError {}

/** A requested port on 127.0.0.1 is already bound by another process. */
export class PortInUseError extends LocalFleetError {
  constructor(
    readonly port: number,
    flag: string,
  ) {
    super(
      `port ${port} on 127.0.0.1 is already in use by another process; choose a free one with ${flag} or omit it to pick one automatically`,
    );
  }
}

/** The upstream tools are missing and could not be built (Go missing, build failed). */
export class ToolchainError extends LocalFleetError {}

/** A fleet is already running in the directory. */
export class FleetRunningError extends LocalFleetError {}

/** No fleet is recorded in the directory. */
export class FleetNotFoundError extends LocalFleetError {}

/** A component of a plane (or the shared etcd) exited or never became ready. */
export class PlaneStartError extends LocalFleetError {
  constructor(
    readonly plane: string,
    readonly component: string,
    detail: string,
    readonly logFile?: string,
  ) {
    super(`${plane}: ${component} failed to start: ${detail}${logFile ? ` (log: ${logFile})` : ""}`);
  }
}

// The fleet layer's errors, under flotilla's one root (the CLI knows them all by FlotillaError).
import { FlotillaError } from "../util/errors.js";

export class FleetError extends FlotillaError {
  override name = "FleetError";
}

// The plan's own errors: bad flags and inputs, named so the CLI can say what to do.
import { FleetError } from "../errors.js";

/** A --source, --revision or --snapshot that cannot be used as given. */
export class PlanInputError extends FleetError {
  override name = "PlanInputError";
}

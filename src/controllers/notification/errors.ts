// The notification dispatcher's typed errors, under flotilla's one root. Messages name the Provider,
// Secret or key at fault — never a token, password or an address (a webhook URL often is the secret).
import { FlotillaError } from "../../util/errors.js";

export class NotificationError extends FlotillaError {
  override name = "NotificationError";
}

/** The Provider cannot be used as written (a type flotilla does not deliver, a Secret missing a key...). */
export class ProviderInvalid extends NotificationError {
  override name = "ProviderInvalid";
  constructor(
    message: string,
    /** The condition reason Flux's v1beta2 would have used. */
    readonly reason = "InvalidConfig",
  ) {
    super(message);
  }
}

/** Delivery failed after the retries (refused, timed out, a 4xx/5xx answer). */
export class DeliveryFailed extends NotificationError {
  override name = "DeliveryFailed";
}

// Flux's --feature-gates for the controller process ("Name=true,Other=false"). Only gates flotilla
// implements are accepted; an unknown or misspelt one is an error naming it, not silently ignored.
import { FlotillaError } from "../util/errors.js";

/** Gate name → default. StrictPostBuildSubstitutions is on by default as in Flux 2.9: a `${var}`
 * with no value and no default fails the Kustomization instead of becoming an empty string.
 * DriftWatch (flotilla's own, decision 0026): an object a Kustomization or HelmRelease applied,
 * edited or deleted by someone else, queues its owner at once instead of waiting for the interval. */
const FEATURE_GATES = { StrictPostBuildSubstitutions: true, DriftWatch: true } as const;
export type FeatureGates = { -readonly [K in keyof typeof FEATURE_GATES]: boolean };

export class FeatureGateError extends FlotillaError {
  override name = "FeatureGateError";
}

export function parseFeatureGates(text: string | undefined): FeatureGates {
  const gates: FeatureGates = { ...FEATURE_GATES };
  for (const part of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value = "", ...rest] = part.split("=");
    if (!(name! in FEATURE_GATES))
      throw new FeatureGateError(
        `--feature-gates: unknown feature gate "${name}" (known: ${Object.keys(FEATURE_GATES).join(", ")})`,
      );
    if (rest.length || !/^(true|false)$/i.test(value))
      throw new FeatureGateError(`--feature-gates: "${part}" must be ${name}=true or ${name}=false`);
    gates[name as keyof FeatureGates] = value.toLowerCase() === "true";
  }
  return gates;
}

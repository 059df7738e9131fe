// What the fleet last asked an object to be, as a digest on the object itself: an apply is skipped only
// when the object still carries the digest of what would be applied now (and holds those values), so a
// field dropped from the desired object — a removed variable, dependency or secretRef — is applied away.
import { createHash } from "node:crypto";
import type { KubeObject } from "../api/meta/object.js";

export const DESIRED_DIGEST_ANNOTATION = "fleet.flotilla.dev/desired-digest";

/** `obj` with the digest of its content (metadata and spec as built) in its annotations. */
export function stampDigest<T extends KubeObject>(obj: T): T {
  const { annotations, ...meta } = obj.metadata;
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== "metadata"));
  const digest = createHash("sha256")
    .update(JSON.stringify({ meta, annotations: annotations ?? {}, rest }))
    .digest("hex")
    .slice(0, 32);
  return {
    ...obj,
    metadata: { ...obj.metadata, annotations: { ...annotations, [DESIRED_DIGEST_ANNOTATION]: digest } },
  };
}

export const digestOn = (obj: KubeObject | undefined) => obj?.metadata.annotations?.[DESIRED_DIGEST_ANNOTATION];

// Label selectors as --watch-label-selector gives them, split into requirements; and the part of a
// sharded install's main selector that applies to the unsharded kinds (Alerts, Providers, Receivers).

/** A label selector's requirements, split at the commas outside parentheses ("a in (x,y),!b" → two). */
export function requirementsOf(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let at = 0;
  for (let i = 0; i <= selector.length; i++) {
    const c = selector[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (i === selector.length || (c === "," && depth === 0)) {
      const r = selector.slice(at, i).trim();
      if (r) out.push(r.replace(/\s+/g, " "));
      at = i + 1;
    }
  }
  return out;
}

/**
 * The selector notification kinds are watched with. A sharded install restricts the main process to
 * !<key> so the shards take their objects; Flux's notification-controller is not sharded, so Alerts,
 * Providers and Receivers carrying a shard key stay the main process's: its !<key> requirements are
 * dropped. Other requirements (a process deliberately kept to some objects) still apply.
 */
export function unshardedSelector(selector: string | undefined): string | undefined {
  if (!selector) return undefined;
  const kept = requirementsOf(selector).filter((r) => !r.startsWith("!"));
  return kept.length ? kept.join(",") : undefined;
}

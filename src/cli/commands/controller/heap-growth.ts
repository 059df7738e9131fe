// How far the controller's JS heap may grow past what the last full GC found alive, before V8 collects
// again. V8's own factor (1.1× to 4×, from its GC and allocation speeds) let the old space of a
// 500-Kustomization run reach 57 MiB over ≈ 32 MiB alive: garbage of the reconciles in flight, kept
// because the heap was allowed to grow (decision 0050). A fixed, smaller factor keeps the peak RSS near
// the live set; it is not a cap, so a larger fleet's live set still grows the heap as far as it needs.
import { setFlagsFromString } from "node:v8";
import { intFlag } from "../../flags.js";

/** The default of --heap-growing-percent (decision 0050). */
export const DEFAULT_HEAP_GROWING_PERCENT = "30";

/**
 * Applies --heap-growing-percent: read by V8 each time it sizes the heap after a full GC, so setting it
 * at run time (it is refused in NODE_OPTIONS) takes effect from the next one. 0 keeps V8's own factor.
 */
export function applyHeapGrowingPercent(value: string): number {
  const percent = intFlag("--heap-growing-percent", value, 0, 1000);
  if (percent > 0) setFlagsFromString(heapGrowingV8Flag(percent));
  return percent;
}

/** The V8 flag for a percent. */
export const heapGrowingV8Flag = (percent: number) => `--heap-growing-percent=${percent}`;

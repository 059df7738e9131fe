// The reconcile.fluxcd.io/requestedAt value notification-controller writes: Go's
// `metav1.Now().String()`, i.e. time.Time.String() of a wall clock with a monotonic reading —
// "2006-01-02 15:04:05.999999999 +0000 UTC m=+12.345678901" (fraction trimmed of trailing zeros,
// the monotonic seconds since the process started always with nine decimals). Controllers only
// compare the value for change, but a user reading the object sees what Flux would have written.

/** Go's time.Time.String() in UTC, for `epochNs` nanoseconds since 1970 and `monotonicNs` since start. */
export function goTimeString(epochNs: bigint, monotonicNs: bigint): string {
  const ms = epochNs / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // 2006-01-02T15:04:05.000Z
  const fraction = (epochNs % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  const wall = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ""} +0000 UTC`;
  const sign = monotonicNs < 0n ? "-" : "+";
  const m = monotonicNs < 0n ? -monotonicNs : monotonicNs;
  return `${wall} m=${sign}${m / 1_000_000_000n}.${(m % 1_000_000_000n).toString().padStart(9, "0")}`;
}

/** Now, as notification-controller stamps it (microsecond precision: what Node's clocks give). */
export function requestedAtNow(): string {
  const nowMs = performance.timeOrigin + performance.now();
  const epochNs = BigInt(Math.round(nowMs * 1000)) * 1000n;
  const monotonicNs = BigInt(Math.round(performance.now() * 1000)) * 1000n;
  return goTimeString(epochNs, monotonicNs);
}

// Waiting on a promise that cannot itself be cancelled (a shared discovery fetch, a request undici
// is still connecting), but only until a stop: the caller is let go at once with the signal's reason.
// What the promise brings after all goes to `onLate` (a response body to discard), or nowhere.

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onLate?: (late: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      work.then(
        (late) => onLate?.(late),
        () => {},
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

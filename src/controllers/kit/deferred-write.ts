// A status write that only happens if the work it announces is still running after a delay.
// Flux writes "Reconciliation in progress" at the start of every reconcile with new work, then the
// outcome a moment later: two status writes where most reconciles finish in well under a second.
// Deferred, a quick reconcile writes its status once; a slow one (a health-check wait, a large
// apply) still shows it is in progress. settle() is awaited before the final write, so the outcome
// is always the last status written.
export class DeferredWrite {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;

  constructor(private readonly delayMs: number) {}

  /**
   * Runs `write` after the delay unless settle() or a newer schedule() came first (a newer message
   * replaces one not written yet; writes never overlap). A failed write goes to `onError`.
   */
  schedule(write: () => Promise<void>, onError: (err: unknown) => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = (this.inFlight ?? Promise.resolve()).then(write).catch(onError);
    }, this.delayMs);
  }

  /** Cancels a write not started yet and waits for one already under way. */
  async settle(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }
}

/** How long a reconcile runs before its "in progress" status is written. */
export const PROGRESS_WRITE_DELAY_MS = 5000;

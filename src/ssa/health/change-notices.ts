// One wait's view of the change hub: which of its objects changed since it last looked, and a sleep
// that a change ends early.
import type { Cluster, ObjectRef } from "../../kube/cluster.js";
import { changeHub, type Subscription } from "./change-hub.js";

export class ChangeNotices {
  private readonly subscriptions = new Map<ObjectRef, Subscription>();
  private changed = new Set<ObjectRef>();
  private wake?: () => void;

  constructor(
    cluster: Cluster,
    refs: ObjectRef[],
    private readonly signal?: AbortSignal,
  ) {
    const hub = changeHub(cluster);
    for (const ref of refs)
      this.subscriptions.set(
        ref,
        hub.subscribe(ref, () => {
          this.changed.add(ref);
          this.wake?.();
        }),
      );
  }

  /** Whether a change of `ref` would be noticed (its kind's watch is running). */
  watched(ref: ObjectRef): boolean {
    return this.subscriptions.get(ref)?.live() ?? false;
  }

  /** The objects that changed, as soon as one does, or undefined when `ms` passed first. */
  async next(ms: number): Promise<ObjectRef[] | undefined> {
    if (!this.changed.size)
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.signal?.removeEventListener("abort", aborted);
          this.wake = undefined;
          resolve();
        };
        const aborted = () => done(); // throwIfAborted below rejects
        const timer = setTimeout(done, ms);
        this.wake = done;
        this.signal?.addEventListener("abort", aborted, { once: true });
      });
    this.signal?.throwIfAborted();
    if (!this.changed.size) return undefined;
    const changed = [...this.changed];
    this.changed = new Set();
    return changed;
  }

  close(): void {
    for (const s of this.subscriptions.values()) s.close();
    this.subscriptions.clear();
    this.wake = undefined;
  }
}

// One metadata-only watch of one kind on one cluster, of the objects carrying an owner's labels. It
// keeps per object only a digest of our managedFields entry (trigger-rules.ts), never the object, and
// reports the changes that should bring an owner's reconcile forward. The Watcher under it relists
// after 410 Gone and backs off while the cluster is unreachable; a relist is compared with what was
// tracked, so what changed or went while events were lost still counts — and so is the first list of a
// watch replacing one for a rotated credential (its baseline: decision 0044).
import type { GroupVersionKind, KubeObject } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import { deleteRef } from "../../kube/recent-writes.js";
import { type WatchEvent, Watcher } from "../../kube/watch.js";
import { inventoryId } from "../../ssa/inventory.js";
import {
  type Exemption,
  judgeDeleted,
  judgeModified,
  ownerLabelSelector,
  type Own,
  ownerOf,
  type Tracked,
  track,
} from "./trigger-rules.js";

/** A change worth a reconcile, before the owner's own checks (inventory, suspend, our own writes). */
export interface Change {
  type: "MODIFIED" | "DELETED";
  /** `namespace/name` of the owner the object's labels name. */
  owner: string;
  /** The object's inventory id (`<namespace>_<name>_<group>_<kind>`). */
  id: string;
  uid?: string;
  resourceVersion?: string;
  /** A deletion's `group/resource/namespace/name`, to tell our own deletes (kube/recent-writes.ts). */
  ref?: string;
  /** The newest writer other than us, for an edit. */
  manager?: string;
  why: string;
}

/** Objects tracked on one cluster, all its watches together, and the most it may hold. */
export interface Budget {
  used: number;
  max: number;
}

export interface Entry extends Tracked {
  owner: string;
  /** Why a deletion would not count (annotations as last seen), for deletions found by a relist. */
  deleteExempt: boolean;
}

export interface KindWatchOptions {
  cluster: Cluster;
  gvk: GroupVersionKind;
  /** Watch in this namespace only (a credential that may not watch cluster-wide). */
  namespace?: string;
  labelGroup: string;
  own: Own;
  exemption: Exemption;
  budget: Budget;
  /**
   * What the watch this one replaces tracked (the same plane reached with a rotated credential): the
   * first list is judged against it, so an edit made while the watches changed hands still counts.
   */
  baseline?: ReadonlyMap<string, Entry>;
  onChange(change: Change): void;
  /** The watch failed (it retries with backoff); `first` once per streak of failures. */
  onError(err: unknown, first: boolean): void;
  onOverBudget(): void;
  /** Every edit judged, trigger or not: for the debug log, where tests see a change was weighed. */
  onJudged?(judged: { id: string; owner?: string; resourceVersion?: string; trigger: boolean; why: string }): void;
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;

export class KindWatch {
  private readonly tracked = new Map<string, Entry>();
  private readonly watcher: Watcher;
  private listed = false;
  /** Resolved once the first list is tracked: from then on a change is judged against it. */
  readonly firstListed: Promise<void>;
  private markListed!: () => void;
  /** true once the first list is tracked, false if the watch was stopped before that. */
  readonly settled: Promise<boolean>;
  private markStopped!: () => void;
  private failing = false;
  private warnedBudget = false;
  /** The kind's resource name (plural), once discovery gave it: for deletions' refs. */
  private resource?: string;

  constructor(private readonly o: KindWatchOptions) {
    this.firstListed = new Promise((resolve) => (this.markListed = resolve));
    const stopped = new Promise<void>((resolve) => (this.markStopped = resolve));
    this.settled = Promise.race([this.firstListed.then(() => true), stopped.then(() => false)]);
    for (const [key, entry] of o.baseline ?? []) {
      if (o.namespace && !key.startsWith(`${o.namespace}/`)) continue;
      if (o.budget.used >= o.budget.max) break;
      this.tracked.set(key, entry);
      o.budget.used++;
    }
    this.watcher = new Watcher(
      o.cluster,
      {
        gvk: o.gvk,
        ...(o.namespace ? { namespace: o.namespace } : {}),
        labelSelector: ownerLabelSelector(o.labelGroup),
        metadataOnly: true,
      },
      {
        onSync: (items) => this.ok() && this.relisted(items),
        onEvent: (e) => this.ok() && this.event(e),
        onError: (err) => {
          this.o.onError(err, !this.failing);
          this.failing = true;
        },
      },
    );
  }

  get size(): number {
    return this.tracked.size;
  }

  /** What is tracked now, for the watch that replaces this one (`baseline`). */
  snapshot(): Map<string, Entry> {
    return new Map(this.tracked);
  }

  start(): void {
    this.o.cluster.mapping(this.o.gvk).then(
      (m) => (this.resource = m.resource),
      () => {}, // the Watcher reports it
    );
    this.watcher.start();
  }

  async stop(): Promise<void> {
    this.markStopped();
    await this.watcher.stop();
    this.o.budget.used -= this.tracked.size;
    this.tracked.clear();
  }

  private ok(): true {
    this.failing = false;
    return true;
  }

  private idOf(o: KubeObject): string {
    return inventoryId({ namespace: o.metadata.namespace ?? "", name: o.metadata.name, ...this.o.gvk });
  }

  private remember(key: string, o: KubeObject): void {
    const owner = ownerOf(o, this.o.labelGroup);
    if (!owner) return;
    if (!this.tracked.has(key)) {
      if (this.o.budget.used >= this.o.budget.max) {
        if (!this.warnedBudget) this.o.onOverBudget();
        this.warnedBudget = true;
        return;
      }
      this.o.budget.used++;
    }
    const deleteExempt = judgeDeleted(o, this.o.exemption).trigger === false;
    this.tracked.set(key, {
      ...track(o, this.o.own),
      owner: `${owner.namespace}/${owner.name}`,
      deleteExempt,
    });
  }

  private forget(key: string): void {
    if (this.tracked.delete(key)) this.o.budget.used--;
  }

  private report(type: Change["type"], o: KubeObject, verdict: { why: string; by?: string }, owner?: string): void {
    const named = ownerOf(o, this.o.labelGroup);
    owner ??= named && `${named.namespace}/${named.name}`;
    if (!owner) return;
    const { uid, resourceVersion, namespace = "", name } = o.metadata;
    const ref =
      type === "DELETED" && this.resource ? deleteRef(this.o.gvk.group, this.resource, namespace, name) : undefined;
    this.o.onChange({
      type,
      owner,
      id: this.idOf(o),
      uid,
      resourceVersion,
      why: verdict.why,
      ...(ref ? { ref } : {}),
      ...(verdict.by ? { manager: verdict.by } : {}),
    });
  }

  private event(e: WatchEvent): void {
    const key = keyOf(e.object);
    if (e.type === "ADDED") return this.remember(key, e.object); // created: nothing to put back
    if (e.type === "DELETED") {
      this.forget(key);
      const verdict = judgeDeleted(e.object, this.o.exemption);
      if (verdict.trigger) this.report("DELETED", e.object, verdict);
      return;
    }
    if (e.type !== "MODIFIED") return;
    const verdict = judgeModified(this.tracked.get(key), e.object, this.o.own, this.o.exemption);
    this.remember(key, e.object);
    if (verdict.trigger) this.report("MODIFIED", e.object, verdict);
    const owner = ownerOf(e.object, this.o.labelGroup);
    this.o.onJudged?.({
      id: this.idOf(e.object),
      ...(owner ? { owner: `${owner.namespace}/${owner.name}` } : {}),
      resourceVersion: e.object.metadata.resourceVersion,
      trigger: verdict.trigger,
      why: verdict.why,
    });
  }

  /** The first list is the baseline; a later one (events were lost: 410 Gone) is compared with it. */
  private relisted(items: KubeObject[]): void {
    const first = !this.listed && !this.o.baseline;
    this.listed = true;
    const seen = new Set<string>();
    for (const o of items) {
      const key = keyOf(o);
      seen.add(key);
      if (first || !this.tracked.has(key)) this.remember(key, o);
      else if (this.tracked.get(key)!.own !== track(o, this.o.own).own) this.event({ type: "MODIFIED", object: o });
      else this.remember(key, o);
    }
    if (first) return this.markListed();
    for (const [key, entry] of [...this.tracked]) {
      if (seen.has(key)) continue;
      this.forget(key);
      if (entry.deleteExempt) continue;
      const [namespace, name] = key.split("/") as [string, string];
      const gone = { apiVersion: "", kind: this.o.gvk.kind, metadata: { name, ...(namespace ? { namespace } : {}) } };
      this.report("DELETED", gone, { why: "deleted (found on relist)" }, entry.owner);
    }
    this.markListed(); // a first list judged against a baseline (resolving again later changes nothing)
  }
}

// The drift watches of one controller: one KindWatch per (cluster, kind) that some owner's inventory
// holds, started when the first owner needs it and stopped when the last one lets go. Owners say
// what they need with want(); a cluster is a cluster+credential (the connection pool's fingerprint),
// so Kustomizations reaching one tenant plane through different Secrets with the same credential
// share its watches.
//
// Bounded (decision 0026): per cluster at most MAX_KINDS watches (kinds past it are not watched: their
// drift is put back at the interval, as before) and MAX_TRACKED objects tracked (~200 bytes each: a
// digest of our entry, no body), so at most ~20 MB per cluster however many objects its inventories name.
import type { GroupVersionKind } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import { ForbiddenError } from "../../kube/errors.js";
import { type Budget, type Change, type Entry, KindWatch, type KindWatchOptions } from "./kind-watch.js";
import type { Exemption, Own } from "./trigger-rules.js";

const MAX_KINDS = 64;
const MAX_TRACKED = 100_000;
const STOP_WAIT_MS = 5000;

export interface WatchedCluster {
  /** Identity: the cluster+credential fingerprint. */
  key: string;
  cluster: Cluster;
  /** For logs: the management cluster, or the kubeconfig Secret it came from. */
  name: string;
}

export interface WatchSetOptions {
  labelGroup: string;
  own: Own;
  exemption: Exemption;
  onChange(change: Change & { cluster: string }): void;
  onError(target: WatchedCluster, gvk: GroupVersionKind, err: unknown, first: boolean): void;
  /** A limit was reached: what is past it is left to the interval. */
  onLimit(target: WatchedCluster, what: string): void;
  /** A cluster-wide watch was refused (403): the cluster is watched per namespace from now on. */
  onScoped?(target: WatchedCluster, gvk: GroupVersionKind): void;
  onJudged?: KindWatchOptions["onJudged"];
  maxKinds?: number;
  maxTracked?: number;
}

/** A kind an owner needs watched, with the namespaces its objects are in ("" for cluster-scoped ones). */
export type WantedKind = GroupVersionKind & { namespaces?: string[] };

interface KindEntry {
  gvk: GroupVersionKind;
  owners: Set<string>;
  /** Per owner, the namespaces of its objects of this kind. */
  namespaces: Map<string, string[]>;
  /** The cluster-wide watch (key ""), or per namespace once the cluster is scoped. */
  watches: Map<string, KindWatch>;
}

interface ClusterEntry {
  target: WatchedCluster;
  kinds: Map<string, KindEntry>;
  budget: Budget;
  /** Limits already reported (once each). */
  reported: Set<string>;
  /**
   * The credential may not watch cluster-wide (a kubeconfig bound to some namespaces, as Kamaji's
   * KubeconfigGenerator issues): namespaced kinds are watched in their owners' namespaces instead.
   */
  scoped: boolean;
}

const kindKey = (g: GroupVersionKind) => `${g.group}/${g.version}/${g.kind}`;
const kindOnly = ({ group, version, kind }: GroupVersionKind): GroupVersionKind => ({ group, version, kind });

export class DriftWatchSet {
  private readonly clusters = new Map<string, ClusterEntry>();
  private readonly owners = new Map<string, { cluster: string; kinds: Set<string> }>();
  private readonly stopping = new Set<Promise<void>>();
  /** Per kind, what the watches an owner is leaving tracked, for those want() starts on `baselineFor`. */
  private readonly baselines = new Map<string, Map<string, Entry>>();
  private baselineFor?: string;

  constructor(private readonly o: WatchSetOptions) {}

  /** What an owner needs watched now (replacing what it needed before); no target releases all. */
  want(owner: string, target: WatchedCluster | undefined, gvks: WantedKind[]): void {
    const before = this.owners.get(owner);
    const next = new Map(target ? gvks.map((g) => [kindKey(g), g] as const) : []);
    // Moving to another credential (a rotated kubeconfig): the new watches start from what the old ones tracked.
    if (before && target && before.cluster !== target.key) this.handOver(before.cluster, before.kinds, target.key);
    if (before)
      for (const k of before.kinds)
        if (before.cluster !== target?.key || !next.has(k)) this.release(owner, before.cluster, k);
    if (!target || next.size === 0) {
      this.owners.delete(owner);
      return this.baselines.clear();
    }
    this.owners.set(owner, { cluster: target.key, kinds: new Set(next.keys()) });
    let entry = this.clusters.get(target.key);
    if (!entry) {
      entry = {
        target,
        kinds: new Map(),
        budget: { used: 0, max: this.o.maxTracked ?? MAX_TRACKED },
        reported: new Set(),
        scoped: false,
      };
      this.clusters.set(target.key, entry);
    }
    for (const [k, gvk] of next) {
      let kind = entry.kinds.get(k);
      if (!kind)
        entry.kinds.set(
          k,
          (kind = { gvk: kindOnly(gvk), owners: new Set(), namespaces: new Map(), watches: new Map() }),
        );
      kind.owners.add(owner);
      kind.namespaces.set(owner, gvk.namespaces ?? [""]);
    }
    this.fill(entry);
    this.baselines.clear();
  }

  /** The cluster an owner's watches are on. */
  clusterOf(owner: string): string | undefined {
    return this.owners.get(owner)?.cluster;
  }

  ownersOn(cluster: string): string[] {
    return [...this.owners].filter(([, o]) => o.cluster === cluster).map(([owner]) => owner);
  }

  /**
   * Resolved once every running watch an owner needs has listed (kinds past the limit have none):
   * before that, a change to its objects may be taken for the baseline and not reported. A watch
   * replaced before it listed (a refused cluster-wide watch, now one per namespace) is waited for in
   * its replacements.
   */
  async listed(owner: string): Promise<void> {
    for (;;) {
      const o = this.owners.get(owner);
      const kinds = o ? this.clusters.get(o.cluster)?.kinds : undefined;
      const watches = [...(o?.kinds ?? [])].flatMap((k) => [...(kinds?.get(k)?.watches.values() ?? [])]);
      if ((await Promise.all(watches.map((w) => w.settled))).every(Boolean)) return;
    }
  }

  /** Watches running per cluster, and the objects they track. */
  stats(): { cluster: string; watches: number; tracked: number }[] {
    return [...this.clusters.values()].map((c) => ({
      cluster: c.target.name,
      watches: [...c.kinds.values()].reduce((n, k) => n + k.watches.size, 0),
      tracked: c.budget.used,
    }));
  }

  async stop(): Promise<void> {
    for (const c of this.clusters.values())
      for (const k of c.kinds.values()) for (const w of k.watches.values()) this.stopWatch(w);
    this.clusters.clear();
    this.owners.clear();
    // A watch caught in a request to a cluster that does not answer must not hold up the process's end.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((r) => (timer = setTimeout(r, STOP_WAIT_MS).unref()));
    await Promise.race([Promise.all(this.stopping), bound]);
    clearTimeout(timer);
  }

  private handOver(cluster: string, kinds: Set<string>, to: string): void {
    const entry = this.clusters.get(cluster);
    this.baselines.clear();
    this.baselineFor = to;
    for (const k of kinds)
      for (const w of entry?.kinds.get(k)?.watches.values() ?? []) {
        const into = this.baselines.get(k) ?? new Map<string, Entry>();
        for (const [key, tracked] of w.snapshot()) into.set(key, tracked);
        this.baselines.set(k, into);
      }
  }

  private release(owner: string, cluster: string, k: string): void {
    const entry = this.clusters.get(cluster);
    const kind = entry?.kinds.get(k);
    if (!entry || !kind) return;
    kind.owners.delete(owner);
    kind.namespaces.delete(owner);
    if (kind.owners.size) return;
    entry.kinds.delete(k);
    for (const w of kind.watches.values()) this.stopWatch(w);
    if (entry.kinds.size === 0) this.clusters.delete(cluster);
    else this.fill(entry); // a slot came free
  }

  private stopWatch(watch: KindWatch): void {
    const done = watch.stop().finally(() => this.stopping.delete(done));
    this.stopping.add(done);
  }

  private limit(entry: ClusterEntry, what: string): void {
    if (entry.reported.has(what)) return;
    entry.reported.add(what);
    this.o.onLimit(entry.target, what);
  }

  /** Where a kind is watched: cluster-wide, or — the cluster scoped, the kind namespaced — in each owner namespace. */
  private scopesOf(entry: ClusterEntry, kind: KindEntry): string[] {
    const namespaces = new Set([...kind.namespaces.values()].flat());
    return entry.scoped && !namespaces.has("") ? [...namespaces].sort() : [""];
  }

  /** Starts (and stops) watches so each kind is watched where it should be, up to the cluster's limit of kinds. */
  private fill(entry: ClusterEntry): void {
    let running = [...entry.kinds.values()].filter((k) => k.watches.size).length;
    const max = this.o.maxKinds ?? MAX_KINDS;
    for (const kind of entry.kinds.values()) {
      const scopes = this.scopesOf(entry, kind);
      for (const [ns, w] of kind.watches)
        if (!scopes.includes(ns)) {
          kind.watches.delete(ns);
          this.stopWatch(w);
        }
      if (!kind.watches.size) {
        if (running >= max) {
          this.limit(entry, `more than ${max} kinds: the rest not watched`);
          continue;
        }
        running++;
      }
      for (const ns of scopes) if (!kind.watches.has(ns)) this.startWatch(entry, kind, ns);
    }
  }

  private startWatch(entry: ClusterEntry, kind: KindEntry, namespace: string): void {
    const watch = new KindWatch({
      cluster: entry.target.cluster,
      gvk: kind.gvk,
      ...(namespace ? { namespace } : {}),
      labelGroup: this.o.labelGroup,
      own: this.o.own,
      exemption: this.o.exemption,
      budget: entry.budget,
      ...(this.baselineFor === entry.target.key && this.baselines.has(kindKey(kind.gvk))
        ? { baseline: this.baselines.get(kindKey(kind.gvk)) }
        : {}),
      onChange: (change) => this.o.onChange({ ...change, cluster: entry.target.key }),
      onError: (err, first) => {
        // Refused cluster-wide: watch in the owners' namespaces instead of retrying what will stay refused.
        if (!namespace && err instanceof ForbiddenError && !entry.scoped && kind.watches.get("") === watch) {
          entry.scoped = true;
          this.o.onScoped?.(entry.target, kind.gvk);
          this.fill(entry);
          return;
        }
        this.o.onError(entry.target, kind.gvk, err, first);
      },
      onOverBudget: () => this.limit(entry, `more than ${entry.budget.max} objects: the rest not tracked`),
      ...(this.o.onJudged ? { onJudged: this.o.onJudged } : {}),
    });
    kind.watches.set(namespace, watch);
    watch.start();
  }
}

// Leader election on a coordination.k8s.io Lease, as controller-runtime does it: acquire when the
// lease is free or expired, renew every retry period, and give up leadership (the process then
// exits) when renewal has failed for the renew deadline. Updates are optimistic (resourceVersion),
// so two candidates can never both win.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import { ConflictError, NotFoundError } from "../kube/errors.js";
import type { Logger } from "./logger.js";

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  /** Flux's defaults: 35 s lease, 30 s renew deadline, 5 s retry period. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

interface Lease {
  apiVersion: "coordination.k8s.io/v1";
  kind: "Lease";
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export const LEADER_ELECTION_ID = "flotilla-controller-leader-election";

/**
 * The Lease's name, as Flux's controllers name theirs (fluxcd/pkg runtime/leaderelection GenerateID):
 * a controller with --watch-label-selector (a shard) suffixes the first 8 hex digits of the selector's
 * SHA-256, so the shards of one namespace each elect their own leader instead of one among all of them.
 */
export function leaderElectionId(watchLabelSelector?: string): string {
  if (!watchLabelSelector) return LEADER_ELECTION_ID;
  return `${LEADER_ELECTION_ID}-${createHash("sha256").update(watchLabelSelector).digest("hex").slice(0, 8)}`;
}

const microTime = (d = new Date()) => d.toISOString().replace("Z", "000Z");

export class LeaderElector {
  private stopped = false;
  private leading = false;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;

  constructor(
    private readonly client: KubeClient,
    readonly options: LeaderElectionOptions,
    private readonly log: Logger,
  ) {
    this.leaseDurationMs = options.leaseDurationMs ?? 35_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 30_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 5_000;
  }

  private get path(): string {
    return pathOf(USED_KINDS.Lease, this.options.namespace, this.options.name);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** One attempt to acquire or renew; true when we hold the lease afterwards. */
  async tryAcquireOrRenew(now = new Date()): Promise<boolean> {
    const me = this.options.identity;
    let lease: Lease | undefined;
    try {
      lease = await this.client.get<Lease>(this.path);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    const spec = {
      holderIdentity: me,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      renewTime: microTime(now),
    };
    if (!lease) {
      try {
        await this.client.create(pathOf(USED_KINDS.Lease, this.options.namespace), {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name: this.options.name, namespace: this.options.namespace },
          spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 },
        });
        return true;
      } catch (err) {
        if (err instanceof ConflictError || (err as { reason?: string }).reason === "AlreadyExists") return false;
        throw err;
      }
    }
    const holder = lease.spec.holderIdentity;
    const renewed = lease.spec.renewTime ? Date.parse(lease.spec.renewTime) : 0;
    const expired = renewed + (lease.spec.leaseDurationSeconds ?? 0) * 1000 < now.getTime();
    if (holder && holder !== me && !expired) return false;
    const takingOver = holder !== me;
    try {
      await this.client.update(this.path, {
        ...lease,
        spec: {
          ...lease.spec,
          ...spec,
          acquireTime: takingOver ? microTime(now) : lease.spec.acquireTime,
          leaseTransitions: (lease.spec.leaseTransitions ?? 0) + (takingOver && holder ? 1 : 0),
        },
      });
      return true;
    } catch (err) {
      if (err instanceof ConflictError) return false; // someone else moved first
      throw err;
    }
  }

  /**
   * Waits until elected, calls `onStartedLeading`, keeps renewing, and calls `onStoppedLeading` once
   * renewal has failed for the renew deadline (or stop() was called after leading).
   */
  async run(onStartedLeading: () => void, onStoppedLeading: () => void): Promise<void> {
    while (!this.stopped) {
      const ok = await this.tryAcquireOrRenew().catch((err) => {
        this.log.error("leader election attempt failed", { error: (err as Error).message });
        return false;
      });
      if (ok) break;
      await sleep(this.retryPeriodMs);
    }
    if (this.stopped) return;
    this.leading = true;
    this.log.info("successfully acquired lease", {
      lease: `${this.options.namespace}/${this.options.name}`,
      identity: this.options.identity,
    });
    onStartedLeading();
    let lastRenew = Date.now();
    while (!this.stopped) {
      await sleep(this.retryPeriodMs);
      if (this.stopped) break;
      const ok = await this.tryAcquireOrRenew().catch(() => false);
      if (ok) lastRenew = Date.now();
      else if (Date.now() - lastRenew > this.renewDeadlineMs) {
        this.log.error("leader election lost", { lease: `${this.options.namespace}/${this.options.name}` });
        break;
      }
    }
    this.leading = false;
    onStoppedLeading();
  }

  /** Stops campaigning and renewing. With `release`, hands the lease back so another can take over at once. */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (!release || !this.leading) return;
    try {
      const lease = await this.client.get<Lease>(this.path);
      if (lease.spec.holderIdentity === this.options.identity) {
        await this.client.update(this.path, {
          ...lease,
          spec: { ...lease.spec, holderIdentity: "", leaseDurationSeconds: 1 },
        });
      }
    } catch {
      // best effort: the lease expires on its own
    }
  }
}

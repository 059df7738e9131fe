// Prometheus metrics in the text exposition format: Flux's gotk_reconcile_duration_seconds and
// gotk_reconcile_condition, and controller-runtime's workqueue metrics.

type Labels = Record<string, string>;
const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());
const fmt = (labels: Labels) => {
  const entries = Object.entries(labels);
  return entries.length
    ? `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`).join(",")}}`
    : "";
};

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  abstract render(): string;
}

export class Gauge extends Metric {
  private values = new Map<string, { labels: Labels; value: number }>();
  set(labels: Labels, value: number): void {
    this.values.set(key(labels), { labels, value });
  }
  delete(labels: Labels): void {
    this.values.delete(key(labels));
  }
  render(): string {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} gauge`,
      ...[...this.values.values()].map((v) => `${this.name}${fmt(v.labels)} ${v.value}`),
    ].join("\n");
  }
}

/** A gauge read when scraped (the process's own memory). */
export class SampledGauge extends Metric {
  constructor(
    name: string,
    help: string,
    private readonly read: () => number,
  ) {
    super(name, help);
  }
  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join("\n");
  }
}

export class Counter extends Metric {
  private values = new Map<string, { labels: Labels; value: number }>();
  inc(labels: Labels, by = 1): void {
    const k = key(labels);
    const v = this.values.get(k) ?? { labels, value: 0 };
    v.value += by;
    this.values.set(k, v);
  }
  render(): string {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} counter`,
      ...[...this.values.values()].map((v) => `${this.name}${fmt(v.labels)} ${v.value}`),
    ].join("\n");
  }
}

export class Histogram extends Metric {
  private values = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    name: string,
    help: string,
    readonly buckets: number[],
  ) {
    super(name, help);
  }
  observe(labels: Labels, value: number): void {
    const k = key(labels);
    const v = this.values.get(k) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((b, i) => {
      if (value <= b) v.counts[i]!++;
    });
    v.sum += value;
    v.count++;
    this.values.set(k, v);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const v of this.values.values()) {
      this.buckets.forEach((b, i) =>
        lines.push(`${this.name}_bucket${fmt({ ...v.labels, le: String(b) })} ${v.counts[i]}`),
      );
      lines.push(`${this.name}_bucket${fmt({ ...v.labels, le: "+Inf" })} ${v.count}`);
      lines.push(`${this.name}_sum${fmt(v.labels)} ${v.sum}`, `${this.name}_count${fmt(v.labels)} ${v.count}`);
    }
    return lines.join("\n");
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];
  register<T extends Metric>(m: T): T {
    this.metrics.push(m);
    return m;
  }
  render(): string {
    return `${this.metrics.map((m) => m.render()).join("\n")}\n`;
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The metrics every flotilla controller process exposes. */
export function controllerMetrics(registry = new Registry()) {
  return {
    registry,
    reconcileDuration: registry.register(
      new Histogram(
        "gotk_reconcile_duration_seconds",
        "The duration in seconds of a GitOps Toolkit resource reconciliation.",
        SECONDS,
      ),
    ),
    reconcileCondition: registry.register(
      new Gauge(
        "gotk_reconcile_condition",
        "The current condition status of a GitOps Toolkit resource reconciliation.",
      ),
    ),
    queueDepth: registry.register(new Gauge("workqueue_depth", "Current depth of workqueue")),
    queueAdds: registry.register(new Counter("workqueue_adds_total", "Total number of adds handled by workqueue")),
    queueRetries: registry.register(
      new Counter("workqueue_retries_total", "Total number of retries handled by workqueue"),
    ),
    queueLatency: registry.register(
      new Histogram(
        "workqueue_queue_duration_seconds",
        "How long in seconds an item stays in workqueue before being requested",
        SECONDS,
      ),
    ),
    workDuration: registry.register(
      new Histogram(
        "workqueue_work_duration_seconds",
        "How long in seconds processing an item from workqueue takes.",
        SECONDS,
      ),
    ),
    reconcileTotal: registry.register(
      new Counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller"),
    ),
    // The process's memory, under prom-client's names, so a soak (or an operator) can tell a leak in the
    // JavaScript heap from the allocator keeping pages.
    residentMemory: registry.register(
      new SampledGauge(
        "process_resident_memory_bytes",
        "Resident memory size in bytes.",
        () => process.memoryUsage().rss,
      ),
    ),
    heapUsed: registry.register(
      new SampledGauge(
        "nodejs_heap_size_used_bytes",
        "Process heap size used from Node.js in bytes.",
        () => process.memoryUsage().heapUsed,
      ),
    ),
  };
}

export type ControllerMetrics = ReturnType<typeof controllerMetrics>;

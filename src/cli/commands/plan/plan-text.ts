// The plan as text (per cluster → per app → objects, then a summary table) and as Markdown for a
// pull-request comment (the summary first, a section per cluster, each app's objects in a diff block).
import type { FieldChange } from "../../../ssa/index.js";
import { type AppPlan, type FleetPlan, hasChanges, hasErrors } from "../../../fleet/plan/types.js";
import { fluxTable } from "../../flux-table.js";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** A changed field: its path, then the value before and after (in Markdown, `-`/`+` in the first column). */
function fieldLines(c: FieldChange, indent: string, md: boolean): string[] {
  const mark = (sign: string, v: unknown) =>
    md ? `${sign}${indent.slice(1)}  ${show(v)}` : `${indent}  ${sign} ${show(v)}`;
  const lines = [`${indent}${c.path}`];
  if ("before" in c && c.before !== undefined) lines.push(mark("-", c.before));
  if ("after" in c && c.after !== undefined) lines.push(mark("+", c.after));
  return lines;
}

/** One app's objects: `+` create, `~` change (fields under it), `-` prune, `✗` would fail, `·` skipped, `=` unchanged. */
function objectLines(a: AppPlan, md: boolean): string[] {
  const out: string[] = [];
  const i = "  ";
  for (const s of a.create) out.push(`+ ${s}`);
  for (const c of a.change) {
    out.push(`${md ? "!" : "~"} ${c.subject}${c.reason ? ` (${c.reason})` : ""}`);
    for (const f of c.diff) out.push(...fieldLines(f, i, md));
  }
  for (const s of a.prune) out.push(`- ${s} (pruned)`);
  for (const e of a.errors) out.push(`${md ? "!" : "✗"} ${e.subject ? `${e.subject}: ` : ""}${e.message}`);
  for (const s of a.skipped) out.push(`· ${s.subject} skipped: ${s.reason}`);
  if (a.unchanged) out.push(`= ${a.unchanged} unchanged`);
  return out;
}

export const appName = (a: AppPlan) => `${a.kind}/${a.namespace}/${a.name}`;

/** An app worth showing: one with something to create, change, prune, skip or fail on. Others are counted. */
const shown = (a: AppPlan) => hasChanges(a) || hasErrors(a) || a.skipped.length > 0;
const quiet = (n: number) => `${n} ${n === 1 ? "app" : "apps"} with no change`;

export function byCluster(plan: FleetPlan): [string, AppPlan[]][] {
  const groups = new Map<string, AppPlan[]>();
  for (const a of [...plan.apps].sort((x, y) => appName(x).localeCompare(appName(y))))
    groups.set(a.cluster, [...(groups.get(a.cluster) ?? []), a]);
  return [...groups.entries()].sort(([x], [y]) =>
    x === "management" ? -1 : y === "management" ? 1 : x.localeCompare(y),
  );
}

export function summaryRows(plan: FleetPlan): string[][] {
  return byCluster(plan).flatMap(([cluster, apps]) =>
    apps
      .filter(shown)
      .map((a) => [
        cluster,
        appName(a),
        ...[a.create.length, a.change.length, a.prune.length, a.unchanged, a.errors.length].map(String),
      ]),
  );
}

const HEADER = ["cluster", "app", "create", "change", "prune", "unchanged", "errors"];

export function totals(plan: FleetPlan) {
  const sum = (f: (a: AppPlan) => number) => plan.apps.reduce((n, a) => n + f(a), 0);
  return {
    create: sum((a) => a.create.length),
    change: sum((a) => a.change.length),
    prune: sum((a) => a.prune.length),
    errors: sum((a) => a.errors.length),
    clusters: new Set(plan.apps.filter((a) => hasChanges(a) || hasErrors(a)).map((a) => a.cluster)).size,
  };
}

const headline = (plan: FleetPlan) => {
  const t = totals(plan);
  return `${t.create} to create, ${t.change} to change, ${t.prune} to prune, ${t.errors} ${t.errors === 1 ? "error" : "errors"}, on ${t.clusters} of ${new Set(plan.apps.map((a) => a.cluster)).size} clusters`;
};

export function planText(plan: FleetPlan): string {
  let out = `Plan (${plan.mode}): ${plan.sources.join(", ") || "no source replaced"}\n`;
  for (const c of plan.caveats) out += `! ${c}\n`;
  if (!plan.apps.length) return `${out}\nNo Kustomization, HelmRelease or fleet object reads these sources.\n`;
  for (const [cluster, apps] of byCluster(plan)) {
    out += `\ncluster ${cluster}\n`;
    for (const a of apps.filter(shown)) {
      out += `  ${appName(a)} (${a.via})\n`;
      for (const n of a.notes) out += `    note: ${n}\n`;
      for (const l of objectLines(a, false)) out += `    ${l}\n`;
    }
    const rest = apps.filter((a) => !shown(a)).length;
    if (rest) out += `  ${apps.length > rest ? "and " : ""}${quiet(rest)}\n`;
  }
  const rows = summaryRows(plan);
  const table = rows.length ? fluxTable(HEADER, rows) : "";
  return `${out}\nSummary: ${headline(plan)}\n${table}`;
}

export function planMarkdown(plan: FleetPlan): string {
  const rows = summaryRows(plan).map((r) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`);
  const sources = plan.sources.map((s) => `\`${s}\``).join(", ");
  let out = `## flotilla plan\n\n**${headline(plan)}** (${plan.mode}; ${sources})\n`;
  if (plan.caveats.length) out += `\n${plan.caveats.map((c) => `> ${c}`).join("\n>\n")}\n`;
  if (rows.length) {
    const head = HEADER.map((h) => h[0]!.toUpperCase() + h.slice(1));
    out += `\n| ${head.join(" | ")} |\n|${HEADER.map(() => " --- ").join("|")}|\n${rows.join("\n")}\n`;
  }
  for (const [cluster, apps] of byCluster(plan)) {
    out += `\n### Cluster \`${cluster}\`\n`;
    for (const a of apps.filter(shown)) {
      out += `\n#### ${a.kind} \`${a.namespace}/${a.name}\`\n\n_${a.via}_\n`;
      for (const n of a.notes) out += `\n> ${n}\n`;
      // A fence longer than any run of backticks in the content: a value cannot close it (and forge the comment).
      const body = objectLines(a, true).join("\n");
      const fence = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      out += `\n${fence}diff\n${body}\n${fence}\n`;
    }
    const rest = apps.filter((a) => !shown(a)).length;
    if (rest) out += `\n_${apps.length > rest ? "And " : ""}${quiet(rest)}._\n`;
  }
  return out;
}

// The three pages as markup: the fleet (clusters failing first, each with its apps, then the fleet
// objects), a cluster (its apps and recent events), an app (actions, source, conditions, history,
// inventory, events, notifications; per-cluster table and rollout stages for a fleet object).
import {
  ago,
  appHref,
  badge,
  clusterHref,
  clusterState,
  eventsTable,
  head,
  html,
  filtering,
  matches,
  short,
  stateOf,
  table,
  tree,
} from "./html.js";
import { notificationsTable } from "./notifications.js";
import { fluxSection, resourceSetSections, resourceSetsTable } from "./operator.js";

/** An app row passes the header's filters (a cluster matches by its own name too). */
const keep = (a, clusterKey = "") => matches(`${a.kind} ${a.namespace} ${a.name} ${clusterKey}`, stateOf(a));

function appTable(apps, clusterKey) {
  const rows = apps.filter((a) => keep(a, clusterKey));
  if (!rows.length) return html`<p class="empty">No app matches.</p>`;
  return html`<table>
    ${head(["Kind", "Namespace", "Name", "Revision", "Status", "Message"])}
    <tbody>
      ${rows.map(
        (a) =>
          html`<tr data-app="${a.kind}/${a.namespace}/${a.name}" data-state="${stateOf(a)}">
            <td>${a.kind}</td>
            <td>${a.namespace}</td>
            <td><a href="${appHref(a.kind, a.namespace, a.name)}">${a.name}</a></td>
            <td>${short(a.revision)}</td>
            <td>${badge(stateOf(a))}</td>
            <td class="msg">${a.message}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

const counts = (c) =>
  html`<span class="counts"
    >${c.total} apps · ${c.ready} ready · ${c.failing} failing · ${c.suspended} suspended</span
  >`;

export function fleetView(v) {
  const clusters = v.clusters.filter((c) => !filtering() || c.apps.some((a) => keep(a, c.cluster)));
  const apps = v.clusters.reduce((n, c) => n + c.counts.total, 0);
  const failing = v.clusters.reduce((n, c) => n + c.counts.failing, 0);
  return html`<h1>Fleet</h1>
    <p class="sub">
      ${v.clusters.length} clusters · ${apps} apps · ${failing} failing${v.readOnly ? " · read-only" : ""}
    </p>
    ${fluxSection(v.flux ?? [])}
    ${clusters.map(
      (c) =>
        html`<section class="cluster" data-cluster="${c.cluster}" aria-labelledby="c-${c.cluster}">
          <h2 id="c-${c.cluster}">
            <a href="${clusterHref(c.cluster)}">${c.cluster}</a> ${badge(clusterState(c))}
            <span class="counts">${c.version ?? ""}${c.lastProbeTime ? ` · probed ${ago(c.lastProbeTime)}` : ""}</span>
            ${counts(c.counts)}
          </h2>
          ${appTable(c.apps, c.cluster)}
        </section>`,
    )}
    ${
      v.fleetObjects.length
        ? html`<h2>Fleet objects</h2>
            <table>
              ${head(["Kind", "Namespace", "Name", "Clusters", "Status", "Message"])}
              <tbody>
                ${v.fleetObjects.map(
                  (f) =>
                    html`<tr data-app="${f.kind}/${f.namespace}/${f.name}" data-state="${stateOf(f)}">
                      <td>${f.kind}</td>
                      <td>${f.namespace}</td>
                      <td><a href="${appHref(f.kind, f.namespace, f.name)}">${f.name}</a></td>
                      <td>${f.counts ? `${f.counts.ready}/${f.counts.total} ready` : ""}</td>
                      <td>${badge(stateOf(f))}</td>
                      <td class="msg">${f.message}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : ""
    }
    ${resourceSetsTable((v.resourceSets ?? []).filter((r) => keep(r, r.targets.join(" "))))}`;
}

export function clusterView(c) {
  return html`<h1>${c.cluster} ${badge(clusterState(c))}</h1>
    <p class="sub">${c.message}</p>
    <dl>
      <dt>Version</dt>
      <dd>${c.version ?? "unknown"}</dd>
      <dt>Last probe</dt>
      <dd>${c.lastProbeTime ? ago(c.lastProbeTime) : "never"}</dd>
      <dt>Apps</dt>
      <dd>${counts(c.counts)}</dd>
    </dl>
    <section data-cluster="${c.cluster}">
      <h2>Apps</h2>
      ${appTable(c.apps, c.cluster)}
    </section>
    <h2>Recent events</h2>
    ${eventsTable(c.events)}
    <h2>Notifications</h2>
    ${notificationsTable(c.notifications ?? [], true)}`;
}

function actionsBar(a) {
  if (a.readOnly) return html`<p class="sub">Read-only: actions are turned off.</p>`;
  const target = { kind: a.kind, namespace: a.namespace, name: a.name };
  const button = (action, label, extra = {}) =>
    html`<button type="button" data-action="${action}" data-target="${JSON.stringify({ ...target, ...extra })}">
      ${label}
    </button>`;
  const waiting = a.fleet?.rollout?.stages?.find((s) => s.phase === "WaitingForApproval");
  return html`<div class="actions" role="group" aria-label="Actions">
    ${button("reconcile", "Reconcile")} ${a.suspended ? button("resume", "Resume") : button("suspend", "Suspend")}
    ${waiting ? button("approve", `Approve stage ${waiting.name}`, { stage: waiting.name, revision: waiting.revision }) : ""}
  </div>`;
}

export function appView(a) {
  const spec = Object.entries(a.spec);
  return html`<h1>${a.kind} ${a.namespace}/${a.name} ${badge(stateOf(a))}</h1>
    <p class="sub" data-message>${a.message}</p>
    ${actionsBar(a)}
    <dl>
      ${
        a.source
          ? html`<dt>Source</dt>
              <dd>
                ${a.source.kind}/${a.source.namespace}/${a.source.name} ${short(a.source.revision)}
                (${a.source.ready === "True" ? "ready" : a.source.message})
              </dd>`
          : ""
      }
      <dt>Revision</dt>
      <dd>${a.revision || "none yet"}</dd>
      ${spec.map(
        ([k, v]) =>
          html`<dt>${k}</dt>
            <dd>${v}</dd>`,
      )}
    </dl>
    ${
      a.fleet
        ? html`<h2>Clusters</h2>
            ${table(
              a.fleet.clusters.map((c) => ({
                cluster: c.cluster,
                child: c.child,
                ready: c.ready,
                revision: short(c.revision),
                message: c.message,
              })),
              ["cluster", "child", "ready", "revision", "message"],
            )}
            ${
              a.fleet.rollout
                ? html`<h2>Rollout stages</h2>
                    ${table(
                      a.fleet.rollout.stages.map((s) => ({
                        stage: s.name,
                        phase: s.phase,
                        revision: short(s.revision),
                        clusters: (s.clusters ?? []).join(", "),
                        message: s.message,
                      })),
                      ["stage", "phase", "revision", "clusters", "message"],
                    )}`
                : ""
            }`
        : ""
    }
    <h2>Conditions</h2>
    ${table(a.conditions, ["type", "status", "reason", "message", "lastTransitionTime"])}
    <h2>History</h2>
    ${table(a.history, [...new Set(a.history.flatMap((h) => Object.keys(h)))])}
    ${
      a.resourceSet
        ? resourceSetSections(a.resourceSet)
        : html`<h2>Inventory</h2>
            ${tree(a.inventory)}`
    }
    <h2>Events</h2>
    ${eventsTable(a.events)}
    <h2>Notifications</h2>
    ${notificationsTable(a.notifications ?? [])}`;
}

// The flotilla dashboard's page: no framework and no build step (decision 0025). Routes are the URL's
// hash (#/, #/cluster/<key>, #/app/<Kind>/<namespace>/<name>); each reads one JSON view from the server,
// and a server-sent "change" event re-reads it — no polling. Every value is escaped when rendered.

const main = document.getElementById("main");
const live = document.getElementById("live");
const toast = document.getElementById("toast");
const search = document.getElementById("search");
const statusFilter = document.getElementById("status");
const crumbs = document.getElementById("crumbs");

const esc = (v) =>
  String(v ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
/** html`...`: interpolated values are escaped unless wrapped by raw(). */
const RAW = Symbol("raw");
const raw = (s) => ({ [RAW]: s });
const html = (strings, ...values) =>
  raw(
    strings.reduce((out, s, i) => {
      if (i === 0) return s;
      const v = values[i - 1];
      const text = Array.isArray(v)
        ? v.map((x) => (x && x[RAW] !== undefined ? x[RAW] : esc(x))).join("")
        : v && v[RAW] !== undefined
          ? v[RAW]
          : esc(v);
      return out + text + s;
    }, ""),
  );

const stateOf = (a) =>
  a.suspended ? "suspended" : a.ready === "True" ? "ready" : a.ready === "False" ? "failing" : "progressing";
const LABELS = {
  ready: "Ready",
  failing: "Failing",
  progressing: "Progressing",
  suspended: "Suspended",
  unknown: "Unknown",
};
const badge = (state) => html`<span class="badge ${state}">${LABELS[state] ?? state}</span>`;
const clusterState = (c) => (c.ready === "True" ? "ready" : c.ready === "False" ? "failing" : "unknown");
const appHref = (kind, ns, name) =>
  `#/app/${encodeURIComponent(kind)}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
const clusterHref = (key) => `#/cluster/${encodeURIComponent(key)}`;
const short = (rev) => String(rev ?? "").replace(/\b([a-f0-9]{8})[a-f0-9]{32,120}\b/g, "$1");
const ago = (t) => {
  if (!t) return "";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(t)) / 1000));
  return s < 90 ? `${s}s ago` : s < 5400 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
};

/** The search box and status filter, applied to app rows (a cluster matches by its own name too). */
function keep(a, clusterKey = "") {
  const q = search.value.trim().toLowerCase();
  const st = statusFilter.value;
  const text = `${a.kind} ${a.namespace} ${a.name} ${clusterKey}`.toLowerCase();
  return (!q || text.includes(q)) && (!st || stateOf(a) === st);
}

function appTable(apps, clusterKey) {
  const rows = apps.filter((a) => keep(a, clusterKey));
  if (!rows.length) return html`<p class="empty">No app matches.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Kind</th>
        <th scope="col">Namespace</th>
        <th scope="col">Name</th>
        <th scope="col">Revision</th>
        <th scope="col">Status</th>
        <th scope="col">Message</th>
      </tr>
    </thead>
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

function fleetView(v) {
  const filtering = search.value.trim() || statusFilter.value;
  const clusters = v.clusters.filter((c) => !filtering || c.apps.some((a) => keep(a, c.cluster)));
  const apps = v.clusters.reduce((n, c) => n + c.counts.total, 0);
  const failing = v.clusters.reduce((n, c) => n + c.counts.failing, 0);
  return html`<h1>Fleet</h1>
    <p class="sub">
      ${v.clusters.length} clusters · ${apps} apps · ${failing} failing${v.readOnly ? " · read-only" : ""}
    </p>
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
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Namespace</th>
                  <th scope="col">Name</th>
                  <th scope="col">Clusters</th>
                  <th scope="col">Status</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
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
    }`;
}

function eventsTable(events) {
  if (!events.length) return html`<p class="empty">No recent events.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Last seen</th>
        <th scope="col">Type</th>
        <th scope="col">Object</th>
        <th scope="col">Reason</th>
        <th scope="col">Message</th>
      </tr>
    </thead>
    <tbody>
      ${events.map(
        (e) =>
          html`<tr>
            <td>${ago(e.last)}</td>
            <td>${e.type}</td>
            <td>${e.object}</td>
            <td>${e.reason}</td>
            <td class="msg">${e.message}${e.count > 1 ? ` (×${e.count})` : ""}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function clusterView(c) {
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
    ${eventsTable(c.events)}`;
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
    ${waiting ? button("approve", `Approve stage ${waiting.name}`, { stage: waiting.name }) : ""}
  </div>`;
}

function tree(t) {
  const namespaces = Object.keys(t).sort();
  if (!namespaces.length) return html`<p class="empty">Nothing applied yet.</p>`;
  return html`<ul class="tree">
    ${namespaces.map(
      (ns) =>
        html`<li>
          ${ns}
          <ul class="tree">
            ${Object.keys(t[ns])
              .sort()
              .map((k) => html`<li>${k}: ${t[ns][k].sort().join(", ")}</li>`)}
          </ul>
        </li>`,
    )}
  </ul>`;
}

function appView(a) {
  const table = (rows, cols) =>
    rows.length
      ? html`<table>
          <thead>
            <tr>
              ${cols.map((c) => html`<th scope="col">${c}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (r) =>
                html`<tr>
                  ${cols.map((c) => html`<td>${r[c] ?? ""}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>`
      : html`<p class="empty">None.</p>`;
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
    <h2>Inventory</h2>
    ${tree(a.inventory)}
    <h2>Events</h2>
    ${eventsTable(a.events)}`;
}

function route() {
  const [, page, ...rest] = location.hash.replace(/^#/, "").split("/").map(decodeURIComponent);
  if (page === "cluster")
    return {
      api: `/api/cluster?key=${encodeURIComponent(rest.join("/"))}`,
      view: clusterView,
      title: rest.join("/"),
      crumb: "cluster",
    };
  if (page === "app") {
    const [kind, namespace, name] = rest;
    const q = new URLSearchParams({ kind, namespace, name });
    return { api: `/api/app?${q}`, view: appView, title: `${kind} ${namespace}/${name}`, crumb: kind };
  }
  return { api: "/api/fleet", view: fleetView, title: "fleet" };
}

let current; // the last view's data, re-rendered when a filter changes
let loading = false;
let again = false;
async function load(focus = false) {
  if (loading) return void (again = true);
  loading = true;
  const r = route();
  try {
    const res = await fetch(r.api, { headers: { Accept: "application/json" } });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? res.statusText);
    current = { r, body };
    render();
    document.title = `flotilla — ${r.title}`;
    crumbs.textContent = r.crumb ? `/ ${r.title}` : "";
    if (focus) main.focus();
  } catch (err) {
    main.innerHTML = html`<p role="alert">Could not load: ${err.message}</p>`[RAW];
  } finally {
    main.setAttribute("aria-busy", "false");
    loading = false;
    if (again) {
      again = false;
      void load();
    }
  }
}
function render() {
  if (current) main.innerHTML = current.r.view(current.body)[RAW];
}

function notify(text, error = false) {
  toast.textContent = text;
  toast.className = error ? "error" : "";
  toast.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (toast.hidden = true), error ? 12000 : 5000);
}

main.addEventListener("click", async (e) => {
  const b = e.target.closest("button[data-action]");
  if (!b) return;
  b.disabled = true;
  try {
    const res = await fetch("/api/action", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Flotilla-Action": "1" },
      body: JSON.stringify({ action: b.dataset.action, ...JSON.parse(b.dataset.target) }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? res.statusText);
    notify(body.message);
    void load();
  } catch (err) {
    notify(err.message, true);
  } finally {
    b.disabled = false;
  }
});

search.addEventListener("input", render);
statusFilter.addEventListener("change", render);
document.getElementById("filters").addEventListener("submit", (e) => e.preventDefault());
window.addEventListener("hashchange", () => load(true));

const stream = new EventSource("/api/stream");
stream.addEventListener("open", () => ((live.textContent = "live"), (live.className = "on")));
stream.addEventListener("error", () => ((live.textContent = "reconnecting…"), (live.className = "off")));
stream.addEventListener("change", () => void load());
void load();

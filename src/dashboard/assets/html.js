// The page's rendering helpers: an html`` tag that escapes every interpolated value (raw() marks
// markup already built by it), and the small formatters the views share.
export const esc = (v) =>
  String(v ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
/** html`...`: interpolated values are escaped unless wrapped by raw(). */
export const RAW = Symbol("raw");
export const raw = (s) => ({ [RAW]: s });
export const html = (strings, ...values) =>
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

/** The header's search text and status (app.js sets them from the form); each page filters its own rows. */
let filter = { q: "", status: "" };
export const setFilter = (q, status) => (filter = { q: q.trim().toLowerCase(), status });
export const filtering = () => Boolean(filter.q || filter.status);
/** Whether a row with this text and state passes the filters. */
export const matches = (text, state) =>
  (!filter.q || text.toLowerCase().includes(filter.q)) && (!filter.status || state === filter.status);

/** A table's header row: one column header per name. */
export const head = (cols) =>
  html`<thead>
    <tr>
      ${cols.map((c) => html`<th scope="col">${c}</th>`)}
    </tr>
  </thead>`;

/** Rows of plain values under these columns. */
export const table = (rows, cols, empty = "None.") =>
  rows.length
    ? html`<table>
        ${head(cols)}
        <tbody>
          ${rows.map(
            (r) =>
              html`<tr>
                ${cols.map((c) => html`<td>${r[c] ?? ""}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>`
    : html`<p class="empty">${empty}</p>`;

/** An inventory tree: namespace → kind → names. */
export function tree(t) {
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

export function eventsTable(events) {
  if (!events.length) return html`<p class="empty">No recent events.</p>`;
  return html`<table>
    ${head(["Last seen", "Type", "Object", "Reason", "Message"])}
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

export const stateOf = (a) =>
  a.suspended ? "suspended" : a.ready === "True" ? "ready" : a.ready === "False" ? "failing" : "progressing";
const LABELS = {
  ready: "Ready",
  failing: "Failing",
  progressing: "Progressing",
  suspended: "Suspended",
  unknown: "Unknown",
};
export const badge = (state) => html`<span class="badge ${state}">${LABELS[state] ?? state}</span>`;
export const clusterState = (c) => (c.ready === "True" ? "ready" : c.ready === "False" ? "failing" : "unknown");
export const appHref = (kind, ns, name) =>
  `#/app/${encodeURIComponent(kind)}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
export const clusterHref = (key) => `#/cluster/${encodeURIComponent(key)}`;
export const short = (rev) => String(rev ?? "").replace(/\b([a-f0-9]{8})[a-f0-9]{32,120}\b/g, "$1");
export const ago = (t) => {
  if (!t) return "";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(t)) / 1000));
  return s < 90 ? `${s}s ago` : s < 5400 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
};

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

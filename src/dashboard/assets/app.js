// The flotilla dashboard's page: no framework and no build step (decision 0025). Routes are the URL's
// hash (#/, #/cluster/<key>, #/app/<Kind>/<namespace>/<name>, #/notifications, #/flux/<namespace>); each reads one
// JSON view from the server, and a server-sent "change" event re-reads it — no polling. Every value is escaped
// when rendered. The header's filters apply to the pages with lists (fleet, cluster, notifications) and are
// hidden on the others, where they would do nothing.
import { html, RAW, setFilter } from "./html.js";
import { appView, clusterView, fleetView } from "./views.js";
import { providersView } from "./notifications.js";
import { fluxView } from "./operator.js";

const main = document.getElementById("main");
const live = document.getElementById("live");
const toast = document.getElementById("toast");
const search = document.getElementById("search");
const statusFilter = document.getElementById("status");
const crumbs = document.getElementById("crumbs");
const filters = document.getElementById("filters");

function route() {
  const [, page, ...rest] = location.hash.replace(/^#/, "").split("/").map(decodeURIComponent);
  if (page === "cluster")
    return {
      api: `/api/cluster?key=${encodeURIComponent(rest.join("/"))}`,
      view: clusterView,
      title: rest.join("/"),
      crumb: "cluster",
      filters: true,
    };
  if (page === "app") {
    const [kind, namespace, name] = rest;
    const q = new URLSearchParams({ kind, namespace, name });
    return { api: `/api/app?${q}`, view: appView, title: `${kind} ${namespace}/${name}`, crumb: kind };
  }
  if (page === "notifications")
    return {
      api: "/api/notifications",
      view: providersView,
      title: "notifications",
      crumb: "notifications",
      filters: true,
    };
  if (page === "flux") {
    const q = new URLSearchParams({ namespace: rest.join("/") });
    return { api: `/api/flux?${q}`, view: fluxView, title: `Flux in ${rest.join("/")}`, crumb: "flux" };
  }
  return { api: "/api/fleet", view: fleetView, title: "fleet", filters: true };
}

let current; // the last view's data, re-rendered when a filter changes
let loading = false;
let again = false;
async function load(focus = false) {
  if (loading) return void (again = true);
  loading = true;
  try {
    const r = route();
    const res = await fetch(r.api, { headers: { Accept: "application/json" } });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? res.statusText);
    current = { r, body };
    filters.hidden = !r.filters;
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

const refilter = () => (setFilter(search.value, statusFilter.value), render());
search.addEventListener("input", refilter);
statusFilter.addEventListener("change", refilter);
filters.addEventListener("submit", (e) => e.preventDefault());
window.addEventListener("hashchange", () => load(true));

const stream = new EventSource("/api/stream");
stream.addEventListener("open", () => ((live.textContent = "live"), (live.className = "on")));
stream.addEventListener("error", () => ((live.textContent = "reconnecting…"), (live.className = "off")));
stream.addEventListener("change", () => void load());
void load();

// Notifications in the page: an app's last notifications (which Alert sent what to which Provider,
// delivered or failed) and the Providers page, each Provider with its recent failures. The server sends
// display fields only: a Provider's address is its scheme and host, never a path or a Secret's value.
import { ago, badge, filtering, html, matches, stateOf } from "./html.js";

const head = (cols) =>
  html`<thead>
    <tr>
      ${cols.map((c) => html`<th scope="col">${c}</th>`)}
    </tr>
  </thead>`;

const outcome = (n) =>
  n.delivered
    ? html`<span class="badge ready">Delivered</span>`
    : html`<span class="badge failing">Failed</span> <span class="msg">${n.error}</span>`;

/** An app's last notifications, newest first; a cluster's name the object of each. */
export function notificationsTable(rows, withObject = false) {
  if (!rows.length)
    return html`<p class="empty">No notifications sent about ${withObject ? "its apps" : "it"} recently.</p>`;
  const cols = [
    "Sent",
    ...(withObject ? ["Object"] : []),
    "Alert",
    "Provider",
    "Severity",
    "Reason",
    "Message",
    "Outcome",
  ];
  return html`<table>
    ${head(cols)}
    <tbody>
      ${rows.map(
        (n) =>
          html`<tr data-notification="${n.provider}" data-outcome="${n.delivered ? "delivered" : "failed"}">
            <td>${ago(n.time)}</td>
            ${withObject ? html`<td>${n.object}</td>` : ""}
            <td>${n.alert}</td>
            <td>${n.provider}</td>
            <td>${n.severity}</td>
            <td>${n.reason}</td>
            <td class="msg">${n.message}</td>
            <td>${outcome(n)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function failuresTable(failures) {
  if (!failures.length) return html`<p class="empty">No recent failures.</p>`;
  return html`<table>
    ${head(["When", "Reason", "About", "Alert", "Message"])}
    <tbody>
      ${failures.map(
        (f) =>
          html`<tr data-failure="${f.reason}">
            <td>${ago(f.time)}</td>
            <td>${f.reason}</td>
            <td>${f.object ?? ""}</td>
            <td>${f.alert ?? ""}</td>
            <td class="msg">${f.message}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** Every Provider, failing first, with where it sends and its recent failures; the header's filters apply. */
export function providersView(v) {
  if (!v.providers.length)
    return html`<h1>Notification providers</h1>
      <p class="empty">No Provider in view.</p>`;
  const shown = v.providers.filter((p) => matches(`${p.namespace} ${p.name} ${p.type} ${p.address}`, stateOf(p)));
  return html`<h1>Notification providers</h1>
    <p class="sub">
      ${v.providers.length} providers · ${v.providers.filter((p) => p.ready === "False").length} failing
      ${filtering() ? ` · ${shown.length} shown` : ""}
    </p>
    ${shown.length ? "" : html`<p class="empty">No Provider matches.</p>`}
    ${shown.map(
      (p) =>
        html`<section data-provider="${p.namespace}/${p.name}" aria-labelledby="p-${p.namespace}-${p.name}">
          <h2 id="p-${p.namespace}-${p.name}">${p.namespace}/${p.name} ${badge(stateOf(p))}</h2>
          <dl>
            <dt>Type</dt>
            <dd>${p.type}</dd>
            <dt>Sends to</dt>
            <dd>${p.address || "(no address)"}</dd>
            <dt>Status</dt>
            <dd class="msg">${p.reason ? `${p.reason}: ` : ""}${p.message}</dd>
          </dl>
          ${failuresTable(p.failures)}
        </section>`,
    )}`;
}

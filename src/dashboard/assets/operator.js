// The Flux Operator's objects in the page: the fleet page's ResourceSets table and Flux instances, a
// ResourceSet's input groups, providers and inventory per target, and a namespace's FluxInstance and
// FluxReport page. The server sends display fields only: inputs as ids and key names, never values.
import { ago, appHref, badge, clusterHref, eventsTable, head, html, short, stateOf, table, tree } from "./html.js";

export const fluxHref = (ns) => `#/flux/${encodeURIComponent(ns)}`;
const targetLinks = (targets) => targets.map((t, i) => html`${i ? ", " : ""}<a href="${clusterHref(t)}">${t}</a>`);

/** Every ResourceSet: Ready and reason, revision, inputs and groups, where it applies. */
export function resourceSetsTable(rows) {
  if (!rows.length) return "";
  return html`<h2>ResourceSets</h2>
    <table>
      ${head(["Namespace", "Name", "Targets", "Inputs", "Groups", "Revision", "Status", "Message"])}
      <tbody>
        ${rows.map(
          (r) =>
            html`<tr data-resourceset="${r.namespace}/${r.name}" data-state="${stateOf(r)}">
              <td>${r.namespace}</td>
              <td><a href="${appHref("ResourceSet", r.namespace, r.name)}">${r.name}</a></td>
              <td data-targets>
                ${targetLinks(r.targets)}${r.selector !== undefined ? ` (${r.selector || "all"})` : ""}
              </td>
              <td data-inputs>${r.inputs ?? ""}</td>
              <td data-groups>${r.groups}</td>
              <td>${short(r.revision)}</td>
              <td>${badge(stateOf(r))}</td>
              <td class="msg">${r.reason ? `${r.reason}: ` : ""}${r.message}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

/** The Flux instances (one per cluster, in its runtime namespace) at the top of the fleet page. */
export function fluxSection(rows) {
  if (!rows.length) return "";
  return html`<section aria-labelledby="flux-h">
    <h2 id="flux-h">Flux instances</h2>
    <table>
      ${head(["Namespace", "Sync", "Revision", "Report", "Status", "Message"])}
      <tbody>
        ${rows.map(
          (f) =>
            html`<tr data-flux="${f.namespace}" data-state="${stateOf(f)}">
              <td><a href="${fluxHref(f.namespace)}">${f.namespace}</a></td>
              <td>
                ${f.sync ? `${f.sync.kind} ${f.sync.url} ${f.sync.ref} ${f.sync.path}` : f.instance ? "none" : "no FluxInstance"}
              </td>
              <td>${short(f.revision)}</td>
              <td>${f.distribution ?? ""}${f.syncStatus ? ` · sync: ${f.syncStatus}` : ""}</td>
              <td>${badge(stateOf(f))}</td>
              <td class="msg">${f.reason ? `${f.reason}: ` : ""}${f.message}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function groupSection(g) {
  const more = g.count - g.inputs.length;
  return html`<section data-group="${g.target}">
    <h3>${g.target} · ${g.count} input${g.count === 1 ? "" : "s"}</h3>
    ${table(
      g.inputs.map((i) => ({ index: i.index, id: i.id, from: i.from, keys: i.keys.join(", ") })),
      ["index", "id", "from", "keys"],
      "No inputs: nothing is generated.",
    )}
    ${more > 0 ? html`<p class="sub">… and ${more} more.</p>` : ""}
  </section>`;
}

/** A ResourceSet's page: input groups, providers, inventory per target. */
export function resourceSetSections(rs) {
  return html`<h2>Inputs (${rs.strategy})</h2>
    <p class="sub">Ids, origin and keys only: input values are not shown (they may hold anything).</p>
    ${rs.inputsError ? html`<p class="msg" role="alert">${rs.inputsError}</p>` : ""} ${rs.groups.map(groupSection)}
    <h2>Input providers</h2>
    ${table(
      rs.providers.map((p) => ({
        name: p.name,
        type: p.type,
        status: `${p.ready}${p.reason ? ` ${p.reason}` : ""}`,
        exported: p.exportedInputs,
        revision: short(p.lastExportedRevision),
        address: p.address,
        "next schedule": p.nextSchedule ? `${p.nextSchedule} (${ago(p.nextSchedule).replace(" ago", "")})` : "",
        message: p.message,
      })),
      ["name", "type", "status", "exported", "revision", "address", "next schedule", "message"],
      "It reads no ResourceSetInputProvider.",
    )}
    <h2>Inventory</h2>
    ${
      rs.inventories.length
        ? rs.inventories.map(
            (i) =>
              html`<section data-inventory="${i.target}">
                <h3>${i.target}</h3>
                ${tree(i.tree)}
              </section>`,
          )
        : html`<p class="empty">Nothing applied yet.</p>`
    }`;
}

/** A namespace's FluxInstance and FluxReport. */
export function fluxView(v) {
  const i = v.instance;
  const r = v.report;
  return html`<h1>Flux in ${v.namespace} ${badge(stateOf(v))}</h1>
    <p class="sub">${v.reason ? `${v.reason}: ` : ""}${v.message}</p>
    ${
      i
        ? html`<h2>FluxInstance ${i.name}</h2>
            <dl>
              <dt>Distribution</dt>
              <dd>${i.distribution.version} from ${i.distribution.registry}</dd>
              <dt>Sync</dt>
              <dd data-sync>
                ${v.sync ? `${v.sync.kind} ${v.sync.url} ref ${v.sync.ref} path ${v.sync.path}` : "none"}
              </dd>
              ${
                i.pullSecret
                  ? html`<dt>Pull secret</dt>
                      <dd>${i.pullSecret} (by name)</dd>`
                  : ""
              }
              <dt>Revision</dt>
              <dd>${v.revision || "none yet"}</dd>
            </dl>
            <h3>What maps onto flotilla ${i.mapped ? badge(i.mapped.status === "True" ? "ready" : "failing") : ""}</h3>
            ${
              i.mapped
                ? html`<ul data-mapped>
                    ${i.mapped.lines.map((l) => html`<li>${l}</li>`)}
                  </ul>`
                : html`<p class="empty">Not reconciled yet.</p>`
            }
            <h3>Components</h3>
            ${table(i.components, ["name", "image"])}
            <h3>Conditions</h3>
            ${table(i.conditions, ["type", "status", "reason", "message"])}
            <h3>History</h3>
            ${table(
              i.history.map((h) => ({
                ...h,
                metadata: Object.entries(h.metadata ?? {})
                  .map(([k, x]) => `${k}=${x}`)
                  .join(", "),
              })),
              ["digest", "lastReconciled", "lastReconciledStatus", "totalReconciliations", "metadata"],
            )}
            <h3>Inventory</h3>
            ${tree(i.inventory)}`
        : html`<p class="empty">No FluxInstance in this namespace.</p>`
    }
    ${
      r
        ? html`<h2>FluxReport</h2>
            <dl>
              <dt>Distribution</dt>
              <dd data-distribution>
                ${r.distribution.status} ${r.distribution.version ?? ""}
                ${r.distribution.managedBy ? `managed by ${r.distribution.managedBy}` : ""}
              </dd>
              ${
                r.cluster
                  ? html`<dt>Cluster</dt>
                      <dd>
                        ${r.cluster.serverVersion}
                        ${r.cluster.platform}${r.cluster.nodes !== undefined ? ` · ${r.cluster.nodes} nodes` : ""}
                      </dd>`
                  : ""
              }
              ${
                r.sync
                  ? html`<dt>Sync</dt>
                      <dd>${r.sync.id} ${r.sync.ready ? "ready" : "not ready"}: ${r.sync.status}</dd>`
                  : ""
              }
            </dl>
            <h3>Components</h3>
            ${table(
              r.components.map((c) => ({ ...c, ready: String(c.ready) })),
              ["name", "ready", "status", "image"],
            )}
            <h3>Reconcilers</h3>
            ${table(r.reconcilers, ["kind", "apiVersion", "running", "failing", "suspended", "totalSize"])}`
        : html`<p class="empty">No FluxReport in this namespace.</p>`
    }
    <h2>Events</h2>
    ${eventsTable(v.events)}`;
}

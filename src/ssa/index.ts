// Server-side apply resource manager (Flux's fluxcd/pkg/ssa semantics): apply in stages with a
// dry-run first, inventory, prune, health.
export { type Action, type ChangeSetEntry, formatChangeSet, hasChanged } from "./changeset.js";
export { ApplyError, DryRunError, HealthCheckError, PruneError, ResourceManagerError } from "./errors.js";
export { computeHealth, type Health, type HealthStatus } from "./health/status.js";
export { waitForSet, type WaitOptions } from "./health/wait.js";
export { inventoryFromChangeSet, inventoryId, parseInventoryId, staleEntries } from "./inventory.js";
export { ANNOTATIONS, type Owner, ownerLabels } from "./metadata.js";
export { ResourceManager, type ResourceManagerOptions } from "./manager.js";
export { type PruneResult, pruneStale } from "./prune.js";

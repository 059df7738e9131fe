// Server-side apply resource manager (Flux's fluxcd/pkg/ssa semantics): apply in stages with a
// dry-run first, inventory, prune, health; and a plan of a set that writes nothing.
export { type Action, type ChangeSetEntry, formatChangeSet, hasChanged } from "./changeset.js";
export { ApplyError, DryRunError, HealthCheckError, ResourceManagerError } from "./errors.js";
export { computeHealth, type Health, type HealthStatus } from "./health/status.js";
export { waitForSet, type WaitOptions } from "./health/wait.js";
export { compileHealthExpressions, type ExpressionHealth, InvalidHealthExpressionError } from "./health/expressions.js";
export { inventoryFromChangeSet, inventoryId, parseInventoryId, staleEntries } from "./inventory.js";
export { type Owner, setOwnerLabels } from "./metadata.js";
export { type FieldChange, fieldDiff } from "./diff.js";
export { ResourceManager, type ResourceManagerOptions } from "./manager.js";
export { type PlanAction, type PlanEntry } from "./plan-entry.js";
export { type PruneResult, pruneStale } from "./prune.js";
export { Redactor } from "./redact.js";
export { isProvablyUnchanged, isSubset } from "./unchanged.js";

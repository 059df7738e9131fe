// The local fleet: real upstream control planes on one machine, for users, the demo and tests.

export { type AddTenantResult, addTenant } from "./fleet-add-tenant.js";
export { defaultFleetDir } from "./fleet-directory.js";
export { downFleet, type FleetDownResult } from "./fleet-down.js";
export { type FleetState, type PlaneRecord, readFleetState } from "./fleet-state.js";
export { type FleetStatus, fleetStatus, type PlaneStatus } from "./fleet-status.js";
export { type FleetUpOptions, type FleetUpResult, upFleet } from "./fleet-up.js";
export { restartComponent, restartEtcd, startComponent, stopComponent } from "./fleet-restart.js";
export { adminKubeconfigSecretName, TENANTS_NAMESPACE } from "./kamaji.js";
export { ensureToolchain, locateToolchain, type Toolchain } from "./toolchain.js";

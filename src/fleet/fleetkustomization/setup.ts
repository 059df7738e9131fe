// The FleetKustomization controller: the shared fan-out over Kustomization children.
import { fanOutController } from "../fanout/setup.js";
import { fleetKustomizationKind } from "./kind.js";

export const fleetKustomizationController = fanOutController("fleetkustomization", fleetKustomizationKind);

// The staged rollout's pure decision lives in controllers/kit (decision 0053: the ResourceSet stages its
// renders with it too, and controllers may not import the fleet); the fleet kinds keep importing it here.
export * from "../../controllers/kit/rollout-plan.js";

// helm, wrapped once: every helm process flotilla starts goes through runHelm / runHelmSync.
export * from "./errors.js";
export { HelmHome, proxyEnv, withHelmHome } from "./home.js";
export { helmVersion, locateHelm } from "./locate.js";
export { type HelmRunOptions, runHelm, runHelmSync, setHelmConcurrency } from "./run.js";
export {
  type EngineWait,
  type EngineWaitObject,
  type HelmEngineOptions,
  runHelmEngine,
  setHelmEngineConcurrency,
  stopHelmEngine,
} from "./engine.js";
export { locateHelmEngine } from "./engine-locate.js";

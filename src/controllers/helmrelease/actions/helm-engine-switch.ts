// The controller's --helm-engine, read by the runner (run-action.ts) and by the arguments (helm-args.ts:
// only the resident engine has `--wait=flotilla`). Its own module, so the pure argument builders do not
// import the runner.
let engine = true;

/** The controller's --helm-engine: the resident engine (default), or a helm process per action. */
export function useHelmEngine(on: boolean): void {
  engine = on;
}

/** Whether actions run in the resident engine (the only runner with `--wait=flotilla`). */
export const helmEngineOn = (): boolean => engine;

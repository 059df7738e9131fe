// `flotilla local down`: stop every process the fleet recorded and remove what it wrote.
import { FleetNotFoundError } from "./errors.js";
import { removeFleetEntries } from "./fleet-directory.js";
import { liveProcesses, readFleetState } from "./fleet-state.js";
import { terminate } from "./processes.js";

export interface FleetDownResult {
  stopped: number;
  planes: string[];
}

export async function downFleet(dir: string, options: { keepFiles?: boolean } = {}): Promise<FleetDownResult> {
  const state = readFleetState(dir);
  if (!state)
    throw new FleetNotFoundError(
      `no local fleet in ${dir}; nothing to stop (start one with: flotilla local up --dir ${dir})`,
    );
  const live = liveProcesses(state);
  // Planes first, etcd last, so apiservers do not spend their shutdown retrying a vanished etcd.
  await terminate(live.filter((p) => p.component !== "etcd"));
  await terminate(live.filter((p) => p.component === "etcd"));
  if (!options.keepFiles) removeFleetEntries(dir);
  return { stopped: live.length, planes: state.planes.map((p) => p.name) };
}

import { describe, expect, it } from "vitest";
import { FleetNotFoundError, LocalFleetError, PlaneStartError, PortInUseError } from "./errors.js";

describe("local fleet errors", () => {
  it("are each named by their class", () => {
    expect(new LocalFleetError("m").name).toBe("LocalFleetError");
    expect(String(new FleetNotFoundError("no fleet in /x"))).toBe("FleetNotFoundError: no fleet in /x");
    expect(new PortInUseError(8443, "--port").name).toBe("PortInUseError");
    expect(new PlaneStartError("hub", "etcd", "exited").name).toBe("PlaneStartError");
  });
});

// The chart a HelmRelease installs, wherever it came from (a HelmChart's artifact, or an OCIRepository's:
// chart-source.ts, oci-chart.ts).
export interface LoadedChart {
  /** The .tgz on disk (shared, read-only). */
  path: string;
  name: string;
  version: string;
  revision: string;
  digest: string;
  /** From an OCIRepository: the OCI digest the version tracks (status.lastAttemptedRevisionDigest). */
  revisionDigest?: string;
  /** The unpacked copy may be collected once the helm action is done. */
  release(): void;
}

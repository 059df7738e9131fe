// A Helm release as Helm stores it (helm pkg/release/v1 Release, JSON field names).

export interface StoredHook {
  name: string;
  kind: string;
  path: string;
  manifest: string;
  events?: string[];
  last_run?: { started_at?: string; completed_at?: string; phase?: string };
}

/** A Helm release as Helm stores it (helm pkg/release/v1 Release, JSON field names). */
export interface StoredRelease {
  name: string;
  namespace: string;
  version: number;
  info: {
    status: string;
    first_deployed?: string;
    last_deployed?: string;
    deleted?: string;
    description?: string;
    notes?: string;
  };
  chart: { metadata: { name: string; version: string; appVersion?: string } };
  config?: Record<string, unknown>;
  manifest?: string;
  hooks?: StoredHook[];
  apply_method?: string;
}

// Typed errors of the Kubernetes access layer. API failures keep the server's Status message
// (which names the user, verb and resource for Forbidden) and every error names the cluster.
import { FlotillaError } from "../util/errors.js";

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** The `Status` object kube-apiserver returns on failure. */
export interface ApiStatus {
  kind?: "Status";
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
}

export class KubeError extends FlotillaError {
  override name = "KubeError";
  constructor(
    message: string,
    /** Human name of the cluster (kubeconfig context or plane name). */
    readonly cluster: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The API server answered with an error status. */
export class ApiError extends KubeError {
  override name = "ApiError";
  constructor(
    cluster: string,
    readonly code: number,
    readonly reason: string,
    readonly status: ApiStatus,
    readonly request: { method: string; path: string },
  ) {
    super(`${cluster}: ${status.message ?? `${request.method} ${request.path}: HTTP ${code} ${reason}`}`, cluster);
  }
  get causes(): StatusCause[] {
    return this.status.details?.causes ?? [];
  }
}

export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
export class AlreadyExistsError extends ApiError {
  override name = "AlreadyExistsError";
}
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
}
export class UnauthorizedError extends ApiError {
  override name = "UnauthorizedError";
}
export class InvalidError extends ApiError {
  override name = "InvalidError";
}
export class GoneError extends ApiError {
  override name = "GoneError";
}
export class TooManyRequestsError extends ApiError {
  override name = "TooManyRequestsError";
  get retryAfterSeconds(): number | undefined {
    return this.status.details?.retryAfterSeconds;
  }
}

/** The cluster could not be reached at all (refused, TLS failure, timeout). */
export class ConnectionError extends KubeError {
  override name = "ConnectionError";
}

/** An informer did not list in time, or was stopped before it did (the process is shutting down). */
export class InformerSyncError extends KubeError {
  override name = "InformerSyncError";
  constructor(
    message: string,
    cluster: string,
    /** Stopped, not timed out: a shutdown, not a failure. */
    readonly stopped = false,
  ) {
    super(message, cluster);
  }
}

/** The kubeconfig itself is unusable; names the file or source and what is wrong. */
export class KubeconfigError extends KubeError {
  override name = "KubeconfigError";
}

type ApiErrorClass = new (...args: ConstructorParameters<typeof ApiError>) => ApiError;

const BY_REASON: Record<string, ApiErrorClass> = {
  NotFound: NotFoundError,
  AlreadyExists: AlreadyExistsError,
  Conflict: ConflictError,
  Forbidden: ForbiddenError,
  Unauthorized: UnauthorizedError,
  Invalid: InvalidError,
  Gone: GoneError,
  Expired: GoneError,
  TooManyRequests: TooManyRequestsError,
};

const BY_CODE: Record<number, ApiErrorClass> = {
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: InvalidError,
  429: TooManyRequestsError,
};

export function apiErrorFrom(
  cluster: string,
  code: number,
  status: ApiStatus,
  request: { method: string; path: string },
): ApiError {
  const reason = status.reason ?? "";
  const Class = BY_REASON[reason] ?? BY_CODE[code] ?? ApiError;
  return new Class(cluster, code, reason || `HTTP${code}`, status, request);
}

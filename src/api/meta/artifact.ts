// A source's artifact as Flux publishes it in status.artifact (fluxcd/pkg/apis/meta.Artifact):
// where to download it, which revision it holds, and its `sha256:<hex>` digest.

export interface Artifact {
  path: string;
  url: string;
  revision: string;
  digest: string;
  lastUpdateTime: string;
  size: number;
  metadata?: Record<string, string>;
}

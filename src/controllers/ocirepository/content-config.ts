// When a stored OCIRepository artifact must be built again although the revision is the same.
import type { OCIRepository } from "../../api/source/oci-repository.js";

/** Flux's ociContentConfigChanged: the stored artifact was built with other ignore rules or another layer. */
export function contentConfigChanged(obj: OCIRepository): boolean {
  const { spec, status } = obj;
  const [a, b] = [spec.layerSelector, status?.observedLayerSelector];
  const sameSelector = !a || !b ? !a === !b : a.mediaType === b.mediaType && a.operation === b.operation;
  return (spec.ignore ?? undefined) !== (status?.observedIgnore ?? undefined) || !sameSelector;
}

// Which Clusters a fleet object (or one of its rollout stages) chooses: labels, expressions, and names.
import { arr, obj, str, strMap } from "../crd.js";

export interface ClusterSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: "In" | "NotIn" | "Exists" | "DoesNotExist"; values?: string[] }[];
  /** Clusters chosen by name, besides those the labels select. */
  names?: string[];
}

export const clusterSelectorSchema = () =>
  obj({
    matchLabels: strMap(),
    matchExpressions: arr(
      obj({ key: str(), operator: str({ enum: ["In", "NotIn", "Exists", "DoesNotExist"] }), values: arr(str()) }, [
        "key",
        "operator",
      ]),
    ),
    names: arr(str()),
  });

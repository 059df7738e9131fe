// The Git repository the demo serves: one app base and one overlay per tenant cluster, laid out the
// way Flux's "fleet-infra" examples are (apps/<app>/ + clusters/<cluster>/).

const base = {
  "apps/podinfo/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: podinfo
resources:
  - namespace.yaml
  - deployment.yaml
  - service.yaml
configMapGenerator:
  - name: podinfo-ui
    literals:
      - message=hello
`,
  "apps/podinfo/namespace.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: podinfo
`,
  "apps/podinfo/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: podinfo
spec:
  replicas: 1
  selector:
    matchLabels:
      app: podinfo
  template:
    metadata:
      labels:
        app: podinfo
    spec:
      containers:
        - name: podinfo
          image: ghcr.io/stefanprodan/podinfo:6.7.1
          ports:
            - containerPort: 9898
          envFrom:
            - configMapRef:
                name: podinfo-ui
`,
  "apps/podinfo/service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: podinfo
spec:
  selector:
    app: podinfo
  ports:
    - port: 9898
      targetPort: 9898
`,
};

/** The overlay for one tenant cluster: its replica count and greeting. */
export function clusterOverlay(cluster: string, replicas: number, message: string): Record<string, string> {
  return {
    [`clusters/${cluster}/kustomization.yaml`]: `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../apps/podinfo
labels:
  - pairs:
      fleet.example.com/cluster: ${cluster}
configMapGenerator:
  - name: podinfo-ui
    namespace: podinfo
    behavior: merge
    literals:
      - message=${message}
patches:
  - target:
      kind: Deployment
      name: podinfo
    patch: |
      - op: replace
        path: /spec/replicas
        value: ${replicas}
`,
  };
}

export function fleetRepositoryFiles(clusters: string[]): Record<string, string> {
  const files: Record<string, string> = { ...base };
  clusters.forEach((c, i) => Object.assign(files, clusterOverlay(c, i + 1, `hello from ${c}`)));
  return files;
}

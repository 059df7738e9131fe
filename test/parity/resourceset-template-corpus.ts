// The parity corpus of ResourceSet templates: what the operator's docs, its examples and the d2
// fleet reference repositories write, and the corners of text/template and slim-sprig they lean on.
// Each case renders once per input set (null: a ResourceSet without inputs).
export interface TemplateCase {
  name: string;
  template?: string;
  resource?: Record<string, unknown>;
  inputs: (Record<string, unknown> | null)[];
  /** The error messages must match Go's byte for byte too (not only "both fail"). */
  sameError?: boolean;
}

const provider = {
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "ResourceSet",
  name: "apps",
  namespace: "flux-system",
};
const tenants = [
  { tenant: "team1", role: "admin", app: { version: "6.7.x", replicas: 2 }, provider },
  { tenant: "team2", role: "cluster-admin", app: { version: "6.6.x", replicas: 3 }, provider },
];
const d2 = [
  {
    tenant: "apps",
    env: "staging",
    cluster: { name: "staging-1", domain: "staging.example.com" },
    components: ["podinfo", "redis"],
    labels: { team: "dev", "app.kubernetes.io/part-of": "d2" },
    provider,
  },
];

export const CORPUS: TemplateCase[] = [
  {
    name: "docs: OCIRepository and HelmRelease per tenant (resources)",
    resource: {
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      kind: "HelmRelease",
      metadata: { name: "podinfo-<< inputs.tenant >>", namespace: "default" },
      spec: {
        interval: "1h",
        releaseName: "podinfo-<< inputs.tenant >>",
        chartRef: { kind: "OCIRepository", name: "podinfo-<< inputs.tenant >>" },
        values: { replicaCount: "<< inputs.app.replicas | int >>" },
      },
    },
    inputs: tenants,
  },
  {
    name: "docs: semver quoted",
    resource: {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "OCIRepository",
      metadata: { name: "podinfo-<< inputs.tenant >>", namespace: "default" },
      spec: {
        interval: "10m",
        url: "oci://ghcr.io/stefanprodan/charts/podinfo",
        ref: { semver: "<< inputs.app.version | quote >>" },
      },
    },
    inputs: tenants,
  },
  {
    name: "docs: toYaml | nindent under a resources key",
    resource: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "configmap1" },
      data: "<< inputs.foo.bar | toYaml | nindent 2 >>",
    },
    inputs: [{ foo: { bar: { k1: "v1", k2: "v2", n: 3, list: ["a", "b"] } }, provider }],
  },
  {
    name: "docs: get with default",
    template: `name: << get inputs "name" | default inputs.namespace >>\nnamespace: << inputs.namespace >>\n`,
    inputs: [
      { namespace: "team1", provider },
      { namespace: "team2", name: "x", provider },
    ],
  },
  {
    name: "docs: slugify",
    template: `label: << inputs.tenant | slugify >>\nlong: << "This is a very long Title & more @ home, with words that go on and on past the limit" | slugify >>\n`,
    inputs: [{ tenant: "Team One_Two  -- Three!", provider }],
  },
  {
    name: "multi-doc template with range over components",
    template: `<<- range $c := inputs.components >>
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: << inputs.tenant >>-<< $c >>
  namespace: << inputs.tenant >>
  labels:
    env: << inputs.env | quote >>
spec:
  path: ./apps/<< $c >>/<< inputs.env >>
  postBuild:
    substitute:
      domain: << printf "%s.%s" $c inputs.cluster.domain | quote >>
<<- end >>
`,
    inputs: d2,
  },
  {
    name: "if / else if / else, comparisons, and / or / not",
    template: `<< if eq inputs.env "production" >>prod<< else if and (ne inputs.env "dev") (not (eq (len inputs.components) 0)) >>staged<< else >>dev<< end >>
<< if or (lt 1 2) (gt 3 4) >>yes<< end >> << if le 2 2 >>le<< end >> << if ge 1.5 1.5 >>ge<< end >>
<< and 1 0 2 >> << or 0 "" "x" >> << and 1 2 >> << or 0 "" >>`,
    inputs: d2,
  },
  {
    name: "with, else with, variables, $ and assignment",
    template: `<< $x := "a" >><< with inputs.cluster >><< .name >>/<< $x >><< $x = "b" >><< end >> << $x >>
<< with get inputs "missing" >>no<< else with inputs.labels >><< .team >><< end >>`,
    inputs: d2,
  },
  {
    name: "range over a map, index, else, break and continue",
    template: `<< range $k, $v := inputs.labels >><< $k >>=<< $v >>;<< end >>
<< range $i, $c := inputs.components >><< if eq $i 1 >><< break >><< end >><< $i >>:<< $c >> << end >>
<< range $i, $c := list "a" "b" "c" >><< if eq $c "b" >><< continue >><< end >><< $c >><< end >>
<< range list >>x<< else >>empty<< end >> << index inputs.labels "team" >> << index inputs.components 1 >>`,
    inputs: d2,
  },
  {
    name: "define and template",
    template: `<<- define "labels" >>
  labels:
    tenant: << .tenant >>
<<- end >>
metadata:
  name: x
<<- template "labels" inputs >>
`,
    inputs: d2,
  },
  {
    name: "trim markers and comments",
    template: 'a  <<- /* a comment */ ->>   b\n<<- " c " ->>\n\n d <</* another */>>e',
    inputs: [null],
  },
  {
    name: "string functions",
    template: `<< "  x  " | trim >>|<< upper "abc" >>|<< lower "ABC" >>|<< title "hello world" >>|<< trimPrefix "v" "v1.2" >>|<< trimSuffix ".git" "repo.git" >>|<< trimAll "-" "--a--" >>
<< replace "-" "_" "a-b-c" >>|<< repeat 3 "ab" >>|<< substr 1 3 "abcdef" >>|<< trunc 3 "abcdef" >>|<< trunc -2 "abcdef" >>|<< contains "b" "abc" >>|<< hasPrefix "a" "abc" >>|<< hasSuffix "c" "abc" >>
<< quote "a\\"b" 1 nil true >>|<< squote "a" 2 >>|<< cat "a" 1 nil "b" >>|<< indent 2 "a\\nb" >>|<< nindent 4 "x" >>|<< plural "one" "many" 2 >>
<< join "," (list "a" 1 true) >>|<< splitList "," "a,b,,c" >>|<< (split "/" "foo/bar")._1 >>|<< sortAlpha (list "b" "a" "C") >>|<< toString 3 >>|<< atoi "42" >>`,
    inputs: [null],
  },
  {
    name: "hashes and encodings",
    template: `<< sha256sum "abc" >>
<< sha1sum "abc" >>
<< adler32sum "team1/apps" >>
<< b64enc "user:pass" >> << b64dec "dXNlcjpwYXNz" >> << b64dec "%%%" >>`,
    inputs: [null],
  },
  {
    name: "numbers and arithmetic",
    template: `<< add 1 2 3 >> << add1 9 >> << sub 10 3 >> << mul 2 3 4 >> << div 7 2 >> << mod 7 3 >> << max 1 5 3 >> << min 4 2 >>
<< int "12" >> << int64 "x" >> << float64 "1.5" >> << floor 1.7 >> << ceil 1.2 >> << until 3 >> << untilStep 0 10 3 >>
<< inputs.n >> << inputs.f >> << inputs.big >> << inputs.small >> << inputs.n | int >> << inputs.f | int >> << 1.0 >> << 2.5e6 >> << 0x10 >>`,
    inputs: [{ n: 3, f: 2.5, big: 123456789, small: 0.00001, provider }],
  },
  {
    name: "lists and dicts",
    template: `<< $d := dict "a" 1 "b" "two" >><< $d >> << get $d "a" >> << hasKey $d "b" >> << keys $d | sortAlpha >> << values $d | sortAlpha >>
<< $_ := set $d "c" 3 >><< $d >> << unset $d "a" >> << pick $d "b" >> << omit $d "b" >> << pluck "b" $d (dict "b" 9) >>
<< list 1 "a" >> << first (list 1 2) >> << last (list 1 2) >> << rest (list 1 2 3) >> << initial (list 1 2 3) >> << reverse (list 1 2) >>
<< uniq (list 1 1 2) >> << without (list 1 2 3) 2 >> << has 2 (list 1 2) >> << compact (list "" "a" 0 1) >> << concat (list 1) (list 2 3) >>
<< slice (list 1 2 3 4) 1 3 >> << append (list 1) 2 >> << prepend (list 1) 0 >> << chunk 2 (list 1 2 3) >> << dig "a" "b" "def" (dict "a" (dict "b" "found")) >>`,
    inputs: [null],
  },
  {
    name: "defaults, empty, coalesce, ternary",
    template: `<< default "d" "" >> << default "d" "v" >> << default "d" 0 >> << default "d" (list) >> << empty "" >> << empty 1 >> << coalesce "" 0 "x" >>
<< all 1 "a" >> << any 0 "" >> << ternary "y" "n" true >> << ternary "y" "n" false >> << kindOf inputs.n >> << kindOf "s" >> << kindIs "map" inputs >>`,
    inputs: [{ n: 1, provider }],
  },
  {
    name: "JSON and YAML",
    template: `<< toJson inputs >>
<< toPrettyJson inputs.obj >>
<< toRawJson (dict "h" "<a&b>") >>
<< inputs.obj | toYaml >><< (fromJson "{\\"a\\": [1, 2.5]}").a >>
<< mustToJson (list "<>" 1.5 true nil) >>`,
    inputs: [{ obj: { z: 1, a: "x: y", list: [1, "two", { k: null }], empty: {}, t: true }, provider }],
  },
  {
    name: "printf verbs",
    template: `<< printf "%s-%d-%v-%q-%t-%05d-%-4s|-%x-%.2f-%5.1f" "a" 3 (list 1 2) "q" true 42 "ab" 255 3.14159 2.25 >>
<< printf "%d %s" "x" 1 >> << printf "%s" >> << printf "%s" "a" "extra" >> << print "a" 1 2 "b" >> << println "x" 1 >>`,
    inputs: [null],
  },
  {
    name: "printing nil, maps and slices",
    template: `<< inputs.nothing >> << inputs.obj >> << inputs.list >> << index inputs.obj "missing" >> << inputs.provider.kind >>`,
    inputs: [{ nothing: null, obj: { b: 2, a: [1, "x"] }, list: [{ k: "v" }, null, 1.5], provider }],
  },
  {
    name: "error: missing input key names the line and column",
    template: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: << inputs.tenant >>-<< inputs.missing >>\n`,
    inputs: [{ tenant: "team1", provider }],
    sameError: true,
  },
  {
    name: "error: undefined function at parse time",
    template: `a: b\nname: << inputs.tenant | nosuchfunc >>\n`,
    inputs: [{ tenant: "team1", provider }],
    sameError: true,
  },
  {
    name: "error: nil data and nil pointer",
    template: `<< .foo >>`,
    inputs: [null],
    sameError: true,
  },
  {
    name: "error: field of a nil value",
    template: `x\n  << inputs.nothing.deeper >>`,
    inputs: [{ nothing: null, provider }],
    sameError: true,
  },
  {
    name: "error: fail",
    template: `line1\n<< if not inputs.ok >><< fail "inputs.ok must be set" >><< end >>`,
    inputs: [{ ok: false, provider }],
    sameError: true,
  },
  {
    name: "error: wrong type for a string parameter",
    template: `<< upper inputs.n >>`,
    inputs: [{ n: 1, provider }],
    sameError: true,
  },
  {
    name: "error: int64 input to an int parameter",
    template: `<< indent inputs.n "x" >>`,
    inputs: [{ n: 2, provider }],
    sameError: true,
  },
  {
    name: "error: unclosed action and unexpected end",
    template: `a << if true >> b`,
    inputs: [null],
    sameError: true,
  },
  {
    name: "error: undefined variable",
    template: `x\n<< $nope >>`,
    inputs: [null],
    sameError: true,
  },
];

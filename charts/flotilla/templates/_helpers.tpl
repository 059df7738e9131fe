{{/* The labels `flotilla install` puts on every object it writes (no helm.sh/chart: the objects equal install's). */}}
{{- define "flotilla.labels" -}}
app.kubernetes.io/instance: {{ .Release.Namespace }}
app.kubernetes.io/part-of: flotilla
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}

{{- define "flotilla.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/*
The controller Deployments as a list: the main one, then one per shard (Flux's sharding model). Each:
name (Deployment and pod label app), suffix (of its Services), selector (--watch-label-selector).
*/}}
{{- define "flotilla.controllers" -}}
{{- $key := .Values.sharding.key -}}
{{- $shards := .Values.sharding.shards | default list -}}
- name: flotilla-controller
  suffix: ""
  selector: {{ if $shards }}{{ printf "!%s" $key | quote }}{{ else }}""{{ end }}
{{- range $shards }}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" (toString .)) }}
{{- fail (printf "sharding.shards: %q is not a DNS label (lower case letters, digits and '-'): it names the shard's Deployment and Services" (toString .)) }}
{{- end }}
- name: {{ printf "flotilla-controller-%s" . }}
  suffix: {{ printf "-%s" . | quote }}
  selector: {{ printf "%s in (%s)" $key . | quote }}
{{- end }}
{{- end }}

{{/* A podSelector for every controller pod: install's matchLabels when unsharded. */}}
{{- define "flotilla.controllerPods" -}}
{{- $controllers := include "flotilla.controllers" . | fromYamlArray -}}
{{- if eq (len $controllers) 1 }}
matchLabels:
  app: flotilla-controller
{{- else }}
matchExpressions:
  - key: app
    operator: In
    values:
      {{- range $controllers }}
      - {{ .name }}
      {{- end }}
{{- end }}
{{- end }}

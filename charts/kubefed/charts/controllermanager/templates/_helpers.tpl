{{/* The scope, "Cluster" or "Namespaced" (global.scope, empty = Cluster). */}}
{{- define "kubefed.scope" -}}
{{- .Values.global.scope | default "Cluster" -}}
{{- end -}}

{{- define "kubefed.namespaced" -}}
{{- if eq (include "kubefed.scope" .) "Namespaced" }}true{{ end -}}
{{- end -}}

{{/* ":<namespace>" in the names of cluster-wide objects of a Namespaced install, so that
     installs in several namespaces do not collide; "" for Cluster scope. */}}
{{- define "kubefed.nameSuffix" -}}
{{- if include "kubefed.namespaced" . }}:{{ .Release.Namespace }}{{ end -}}
{{- end -}}

{{- define "kubefed.image" -}}
{{ .repository }}/{{ .image }}:{{ .tag }}
{{- end -}}

{{/* nodeSelector, tolerations and imagePullSecrets of every pod */}}
{{- define "kubefed.podCommon" -}}
{{- with .Values.commonNodeSelector }}
nodeSelector:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .Values.commonTolerations }}
tolerations:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
{{ toYaml . | indent 2 }}
{{- end }}
{{- end -}}

{{/* env: {NAME: value} -> a container's env list */}}
{{- define "kubefed.env" -}}
{{- if . }}
env:
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end -}}

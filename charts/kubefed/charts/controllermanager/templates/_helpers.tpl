{{/* The scope, "Cluster" or "Namespaced" (global.scope, empty = Cluster). */}}
{{- define "kubefed.scope" -}}
{{- .Values.global.scope | default "Cluster" -}}
{{- end -}}

{{- define "kubefed.namespaced" -}}
{{- if eq (include "kubefed.scope" .) "Namespaced" }}true{{ end -}}
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

{{/* Every pod of the chart passes Pod Security "restricted" (uid 1001 as KubeFed's, the image's
     user; the rest is what the restricted profile requires, and a read-only root). */}}
{{- define "kubefed.podSecurityContext" -}}
securityContext:
  runAsUser: 1001
  runAsNonRoot: true
  seccompProfile:
    type: RuntimeDefault
{{- end -}}

{{- define "kubefed.containerSecurityContext" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
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

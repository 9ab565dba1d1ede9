#!/usr/bin/env bash
# Threads of the controller manager as the fleet grows: for each member count, a fresh
# federation (hack/federation.sh: host and members with kube-controller-manager, the release
# controller manager, every member joined) with nine types enabled, one federated object of each
# placed in every member; once every object is propagated, the number of threads of the
# controller manager (/proc/<pid>/task) is printed.
#
# Usage: bench/threads/run.sh [MEMBERS...]     (default: 2 10)
#        BUILD_DIR=... to measure another build of the binaries (default: build/release, built)
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(2 10)
TYPES=(namespaces configmaps secrets serviceaccounts services deployments.apps jobs.batch
  replicasets.apps clusterroles.rbac.authorization.k8s.io)

hack/bootstrap.sh
export PATH="$(hack/build-kube-binaries.sh):$PATH"
if [[ -z ${BUILD_DIR:-} ]]; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  cmake --preset release >/dev/null
  cmake --build --preset release --target controller-manager kubefedctl | tail -n 1
  BUILD_DIR=build/release
fi

export KF_RUN_DIR=/dev/shm/kubefed-cpp-bench-threads
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT
rows=()
for members in "${COUNTS[@]}"; do
  hack/federation.sh down >/dev/null 2>&1 || true
  KF_MEMBERS=$members hack/federation.sh up "$BUILD_DIR" "${TYPES[@]}" >/dev/null
  set -a; . "$KF_RUN_DIR/env"; set +a
  K="$KF_KUBECTL --kubeconfig $KUBECONFIG --context host"
  pid=$(cat "$KF_RUN_DIR/controller-manager.pid")
  placement="{clusters: [$(for ((i = 1; i <= members; i++)); do printf '{name: member%d},' "$i"; done)]}"
  $K create namespace bench >/dev/null
  {
    # Block style at the top: kubectl reads a document that starts with "{" as JSON.
    federated() {  # KIND NAME NAMESPACE TEMPLATE
      printf -- '---\napiVersion: types.kubefed.io/v1beta1\nkind: Federated%s\n' "$1"
      printf 'metadata: {name: %s%s}\n' "$2" "${3:+, namespace: $3}"
      printf 'spec: {template: %s, placement: %s}\n' "$4" "$placement"
    }
    federated Namespace bench bench "{}"
    for kind in ConfigMap Secret ServiceAccount Service Deployment Job ReplicaSet ClusterRole; do
      ns=bench
      [[ $kind == ClusterRole ]] && ns=""
      template="{}"
      case $kind in
        Service) template="{spec: {ports: [{port: 80}]}}" ;;
        Deployment | ReplicaSet) template="{spec: {replicas: 0, selector: {matchLabels: {app: b}}, template: {metadata: {labels: {app: b}}, spec: {containers: [{name: c, image: none}]}}}}" ;;
        Job) template="{spec: {suspend: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: none}]}}}}" ;;
      esac
      federated "$kind" bench-threads "$ns" "$template"
    done
  } | $K apply -f - >/dev/null
  kinds=(federatednamespaces federatedconfigmaps federatedsecrets federatedserviceaccounts
    federatedservices federateddeployments federatedjobs federatedreplicasets federatedclusterroles)
  for kind in "${kinds[@]}"; do
    $K wait --all-namespaces --for condition=Propagation --timeout=180s "$kind" --all >/dev/null
  done
  threads=$(ls "/proc/$pid/task" | wc -l)
  rows+=("| $members | ${#TYPES[@]} | $threads |")
done

echo
echo "| members | types enabled | controller manager threads |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"

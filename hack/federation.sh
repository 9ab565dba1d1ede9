#!/usr/bin/env bash
# A running federation on the local clusters, for the demo and the benchmarks: a host and members
# (two unless KF_MEMBERS says otherwise; with kube-controller-manager, whose token controller
# fills the join's ServiceAccount token), KubeFed's CRDs, the controller manager started in the
# background, every member joined with `kubefedctl join`, and the given types enabled with
# `kubefedctl enable`.
#
# Usage: [KF_MEMBERS=N] hack/federation.sh up BUILD_DIR [TYPE...]  (KF_RUN_DIR: the run directory;
#        KF_MEMBERS=0: the host alone)
#        hack/federation.sh down
# Expects the binaries in BUILD_DIR (cmd/controller-manager, cmd/kubefedctl). The controller
# manager's log is $KF_RUN_DIR/controller-manager.log, its pid $KF_RUN_DIR/controller-manager.pid;
# KF_MANAGER_ARGS adds flags to it (e.g. "--rest-config-qps 200 --rest-config-burst 400");
# KF_MANAGER_BINARY runs another controller manager than BUILD_DIR's (e.g. a build of an older
# tree, to compare); KF_SYNC_CONCURRENCY=N writes the KubeFedConfig before the controller manager
# starts, KubeFed's defaults with syncController.maxConcurrentReconciles N (the chart's value
# syncController.maxConcurrentReconciles; unset: the controller manager creates KubeFed's default,
# 1 worker per federated type).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${KF_RUN_DIR:?set KF_RUN_DIR}"
NS=kube-federation-system

stop_manager() {
  local pid_file=$KF_RUN_DIR/controller-manager.pid
  [[ -f $pid_file ]] || return 0
  local pid
  pid=$(cat "$pid_file")
  # Only the process this script started: its pid, still running our binary.
  if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q controller-manager; then
    kill -TERM "$pid"
    for _ in $(seq 100); do [[ -d /proc/$pid ]] || break; sleep 0.1; done
  fi
  rm -f "$pid_file"
}

if [[ ${1:-} == down ]]; then
  [[ -d $KF_RUN_DIR ]] && stop_manager
  exec hack/local-clusters.sh down
fi
[[ ${1:-} == up && -n ${2:-} ]] || { echo "usage: $0 up BUILD_DIR [TYPE...] | down" >&2; exit 2; }
BUILD=$2
shift 2
TYPES=("$@")

MEMBERS=()
for ((i = 1; i <= ${KF_MEMBERS:-2}; i++)); do MEMBERS+=("member$i"); done
KF_WITH_KCM=1 hack/local-clusters.sh up "${#MEMBERS[@]}" >/dev/null
set -a; . "$KF_RUN_DIR/env"; set +a
K="$KF_KUBECTL --kubeconfig $KUBECONFIG --context host"
kubefedctl() {
  "$BUILD/cmd/kubefedctl/kubefedctl" "$@" --kubeconfig "$KUBECONFIG" --host-cluster-context host
}

$K apply --server-side -f charts/kubefed/charts/controllermanager/crds/crds.yaml >/dev/null
$K wait --for condition=established --timeout=60s \
  -f charts/kubefed/charts/controllermanager/crds/crds.yaml >/dev/null
$K get namespace "$NS" >/dev/null 2>&1 || $K create namespace "$NS" >/dev/null

if [[ -n ${KF_SYNC_CONCURRENCY:-} ]]; then
  [[ $KF_SYNC_CONCURRENCY =~ ^[1-9][0-9]*$ ]] || {
    echo "KF_SYNC_CONCURRENCY=$KF_SYNC_CONCURRENCY: give the number of sync workers, 1 or more" >&2
    exit 2
  }
  # Complete, as the chart renders it: the controller manager validates the stored object and
  # defaults nothing (KubeFed's webhook does that, and none runs here).
  $K apply -f - >/dev/null <<YAML
apiVersion: core.kubefed.io/v1beta1
kind: KubeFedConfig
metadata: {name: kubefed, namespace: $NS}
spec:
  scope: Cluster
  controllerDuration: {availableDelay: 20s, unavailableDelay: 60s}
  leaderElect: {leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 5s, resourceLock: configmaps}
  clusterHealthCheck: {period: 10s, failureThreshold: 3, successThreshold: 1, timeout: 3s}
  syncController: {maxConcurrentReconciles: $KF_SYNC_CONCURRENCY, adoptResources: Enabled}
  statusController: {maxConcurrentReconciles: 1}
  featureGates:
  - {name: PushReconciler, configuration: Enabled}
  - {name: RawResourceStatusCollection, configuration: Disabled}
  - {name: SchedulerPreferences, configuration: Enabled}
YAML
fi

stop_manager
MANAGER=${KF_MANAGER_BINARY:-$BUILD/cmd/controller-manager/controller-manager}
[[ -x $MANAGER ]] || { echo "KF_MANAGER_BINARY=$MANAGER is not an executable" >&2; exit 2; }
"$MANAGER" --kubeconfig "$KUBECONFIG" \
  --kubefed-namespace "$NS" --healthz-addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 \
  ${KF_MANAGER_ARGS:-} \
  >"$KF_RUN_DIR/controller-manager.log" 2>&1 &
echo $! >"$KF_RUN_DIR/controller-manager.pid"
# The controller manager creates the KubeFedConfig that `join` reads the scope from.
for _ in $(seq 300); do
  grep -q 'promoted as leader' "$KF_RUN_DIR/controller-manager.log" && break
  [[ -d /proc/$(cat "$KF_RUN_DIR/controller-manager.pid") ]] || {
    cat "$KF_RUN_DIR/controller-manager.log" >&2; exit 1; }
  sleep 0.1
done

for member in "${MEMBERS[@]}"; do
  if ! $K -n "$NS" get kubefedcluster "$member" >/dev/null 2>&1; then
    kubefedctl join "$member" --cluster-context "$member"
  fi
done
# KF_MEMBERS=0: a host alone, for members joined otherwise (the fleet benchmark's simulated ones).
if [[ ${#MEMBERS[@]} -gt 0 ]]; then
  $K -n "$NS" wait --for condition=Ready --timeout=60s kubefedcluster "${MEMBERS[@]}" >/dev/null
fi
for type in "${TYPES[@]}"; do
  kubefedctl enable "$type" >/dev/null
done

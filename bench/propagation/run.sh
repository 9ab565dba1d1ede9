#!/usr/bin/env bash
# Propagation benchmark: COUNT federated ConfigMaps (default "1000 5000") placed in two members,
# propagated by the controller manager (release build, KubeFed's default KubeFedConfig), against
# a direct writer that creates the same ConfigMaps straight into both members with the
# controller's member-client limits in the same run. Prints a Markdown table.
#
# Settings (environment):
#   HOST_QPS, HOST_BURST      the controller manager's host client (--rest-config-qps/-burst;
#                             default 200/400). KubeFed's defaults (5/10) make the host's write
#                             budget, four writes per new federated object (finalizer,
#                             PropagatedVersion create + status, federated status), all that is
#                             measured: HOST_QPS=5 HOST_BURST=10 measures exactly that.
#   MEMBER_QPS, MEMBER_BURST  the member clients' limits, of the controller
#                             (--member-client-qps/-burst) and of the direct writer alike
#                             (default KubeFed's 20/30; "limits lifted": 1000/2000).
#
# Usage: [HOST_QPS=5 HOST_BURST=10] [MEMBER_QPS=20 MEMBER_BURST=30] bench/propagation/run.sh [COUNT...]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(1000 5000)

HOST_QPS=${HOST_QPS:-200} HOST_BURST=${HOST_BURST:-400}
MEMBER_QPS=${MEMBER_QPS:-20} MEMBER_BURST=${MEMBER_BURST:-30}
for setting in HOST_QPS HOST_BURST MEMBER_QPS MEMBER_BURST; do
  [[ ${!setting} =~ ^[0-9]+([.][0-9]+)?$ ]] || {
    echo "run.sh: $setting=${!setting} is not a number (e.g. $setting=20)" >&2
    exit 2
  }
done
for setting in HOST_BURST MEMBER_BURST; do
  [[ ${!setting} =~ ^[0-9]+$ ]] || { echo "run.sh: $setting=${!setting} must be a whole number" >&2; exit 2; }
done

hack/bootstrap.sh
export PATH="$(hack/build-kube-binaries.sh):$PATH"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
cmake --build --preset release --target controller-manager kubefedctl propagation_bench | tail -n 3
BENCH=build/release/bench/propagation/propagation_bench

export KF_RUN_DIR=/dev/shm/kubefed-cpp-bench-propagation
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT
rows=()
for count in "${COUNTS[@]}"; do
  # A fresh federation per size, so that no run inherits another's objects or caches.
  hack/federation.sh down >/dev/null 2>&1 || true
  KF_MANAGER_ARGS="--rest-config-qps $HOST_QPS --rest-config-burst $HOST_BURST --member-client-qps $MEMBER_QPS --member-client-burst $MEMBER_BURST" \
    hack/federation.sh up build/release namespaces configmaps >/dev/null
  set -a; . "$KF_RUN_DIR/env"; set +a
  K="$KF_KUBECTL --kubeconfig $KUBECONFIG"
  for ctx in host member1 member2; do
    $K --context "$ctx" create namespace bench >/dev/null
    $K --context "$ctx" create namespace bench-direct >/dev/null
  done
  $K --context host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: bench, namespace: bench}
spec: {placement: {clusters: [{name: member1}, {name: member2}]}}
YAML
  fed=$("$BENCH" --kubeconfig "$KUBECONFIG" federated bench "$count" \
    "$(cat "$KF_RUN_DIR/controller-manager.pid")")
  direct=$("$BENCH" --kubeconfig "$KUBECONFIG" direct bench-direct "$count" "$MEMBER_QPS" "$MEMBER_BURST")
  get() { sed -E "s/.* $2=([0-9.]+).*/\1/" <<<" $1"; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  rows+=("| $count | kubefed-cpp controller manager | $(get "$fed" seconds) | $(get "$fed" p50) | $(get "$fed" p99) | $(get "$fed" cpu_seconds) | $(get "$fed" peak_rss_mib) | $(get "$fed" member_writes_per_object) | $(get "$fed" host_writes_per_object) | $(get "$fed" host_apf_rejected) |")
  rows+=("| $count | direct writer (QPS $MEMBER_QPS, burst $MEMBER_BURST per member) | $(get "$direct" seconds) | $(get "$direct" p50) | $(get "$direct" p99) | | | $(get "$direct" member_writes_per_object) | | |")
  rows+=("| $count | ratio controller / direct | $(ratio "$(get "$fed" seconds)" "$(get "$direct" seconds)") | $(ratio "$(get "$fed" p50)" "$(get "$direct" p50)") | $(ratio "$(get "$fed" p99)" "$(get "$direct" p99)") | | | | | |")
done

echo
echo "$(date -u +%F), two members, $(nproc) cores, host client QPS $HOST_QPS burst $HOST_BURST, member clients QPS $MEMBER_QPS burst $MEMBER_BURST; latency = from the request to the object existing in a member."
echo
echo "| objects | writer | time to full propagation (s) | latency p50 (s) | latency p99 (s) | controller CPU (s) | controller peak RSS (MiB) | member writes per object | host writes per object | host requests rejected by APF |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"

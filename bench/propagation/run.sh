#!/usr/bin/env bash
# Propagation benchmark: COUNT federated ConfigMaps (default "1000 5000") placed in two members,
# propagated by the controller manager (release build, KubeFed's default KubeFedConfig), against
# a direct writer that creates the same ConfigMaps straight into both members with the
# controller's member-client limits (QPS 20, burst 30) in the same run. Prints a Markdown table.
#
# The controller manager's host client runs at HOST_QPS/HOST_BURST (default 200/400): KubeFed's
# defaults (5/10) would make the host's write budget, about four writes per federated object
# (finalizer, PropagatedVersion create + status, federated status), the only thing measured.
#
# Usage: [HOST_QPS=5 HOST_BURST=10] bench/propagation/run.sh [COUNT...]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(1000 5000)

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
  KF_MANAGER_ARGS="--rest-config-qps ${HOST_QPS:-200} --rest-config-burst ${HOST_BURST:-400}" \
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
  direct=$("$BENCH" --kubeconfig "$KUBECONFIG" direct bench-direct "$count")
  get() { sed -E "s/.* $2=([0-9.]+).*/\1/" <<<" $1"; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  rows+=("| $count | kubefed-cpp controller manager | $(get "$fed" seconds) | $(get "$fed" p50) | $(get "$fed" p99) | $(get "$fed" cpu_seconds) | $(get "$fed" peak_rss_mib) | $(get "$fed" member_writes_per_object) |")
  rows+=("| $count | direct writer (QPS 20, burst 30 per member) | $(get "$direct" seconds) | $(get "$direct" p50) | $(get "$direct" p99) | | | $(get "$direct" member_writes_per_object) |")
  rows+=("| $count | ratio controller / direct | $(ratio "$(get "$fed" seconds)" "$(get "$direct" seconds)") | $(ratio "$(get "$fed" p50)" "$(get "$direct" p50)") | $(ratio "$(get "$fed" p99)" "$(get "$direct" p99)") | | | |")
done

echo
echo "Two members, $(nproc) cores, host client QPS ${HOST_QPS:-200} burst ${HOST_BURST:-400}; latency = from the request to the object existing in a member."
echo
echo "| objects | writer | time to full propagation (s) | latency p50 (s) | latency p99 (s) | controller CPU (s) | controller peak RSS (MiB) | member writes per object |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"

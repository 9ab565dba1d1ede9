#!/usr/bin/env bash
# KubeFed v0.8.1's controller manager against ours, one workload, one run: for each COUNT
# (default "1000 5000") and each limits setting, a fresh federation (hack/federation.sh: two
# members, namespaces and configmaps enabled by our kubefedctl), then the propagation benchmark's
# `federated` mode (COUNT FederatedConfigMaps placed in both members: time to full propagation,
# latency, the controller's CPU and peak RSS, member and host writes per object) through
# KubeFed's controller manager (hack/build-kubefed.sh, built once and cached), then the same on
# another fresh federation through ours (release build). KubeFed's process replaces ours on its
# federation before the first create: same API servers, KubeFedConfig, joins and
# FederatedTypeConfigs. Prints a Markdown table with the ratios ours / KubeFed, then one line
# of key=value figures per COUNT and setting.
#
# Limits (LIMITS, default "kubefed host-lifted lifted"):
#   kubefed  KubeFed's defaults for both: host client QPS 5 / burst 10 (ours is given them: its
#            own default is higher on a host with API Priority and Fairness), member clients
#            QPS 20 / burst 30. Four host writes per new object cap both at about 1.25 objects
#            per second: 1000 objects take some 15 minutes each.
#   host-lifted  host clients QPS 1000 / burst 2000 for both (--rest-config-qps/-burst, KubeFed's
#            flags too), member clients at KubeFed's 20/30 for both: the same limits.
#   lifted   as host-lifted, and ours' member clients at QPS 1000 / burst 2000, while KubeFed's
#            stay at 20/30: KubeFed v0.8.1 has no flag for them. Each as fast as it can be set.
#
# Usage: [LIMITS="kubefed lifted"] [BENCH_RUN_DIR=DIR] bench/propagation/vs-kubefed.sh [COUNT...]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(1000 5000)
read -r -a SETTINGS <<<"${LIMITS:-kubefed host-lifted lifted}"
for count in "${COUNTS[@]}"; do
  [[ $count =~ ^[1-9][0-9]*$ ]] || { echo "vs-kubefed.sh: COUNT $count is not a positive whole number" >&2; exit 2; }
done
for setting in "${SETTINGS[@]}"; do
  [[ $setting == kubefed || $setting == host-lifted || $setting == lifted ]] ||
    { echo "vs-kubefed.sh: LIMITS: $setting is not kubefed, host-lifted or lifted" >&2; exit 2; }
done

hack/bootstrap.sh
export PATH="$(hack/build-kube-binaries.sh | tail -n1):$PATH"
KUBEFED_BIN=$(hack/build-kubefed.sh | tail -n1)
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
cmake --build --preset release --target controller-manager kubefedctl propagation_bench | tail -n 3
BENCH=build/release/bench/propagation/propagation_bench
export KF_RUN_DIR=${BENCH_RUN_DIR:-/dev/shm/kubefed-cpp-bench-vs-kubefed}
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT

# Host and member flags of each controller manager under a setting.
manager_args() {  # CONTROLLER SETTING
  case $1/$2 in
    ours/kubefed) echo "--rest-config-qps 5 --rest-config-burst 10 --member-client-qps 20 --member-client-burst 30" ;;
    ours/host-lifted) echo "--rest-config-qps 1000 --rest-config-burst 2000 --member-client-qps 20 --member-client-burst 30" ;;
    ours/lifted) echo "--rest-config-qps 1000 --rest-config-burst 2000 --member-client-qps 1000 --member-client-burst 2000" ;;
    kubefed/kubefed) echo "" ;;
    kubefed/host-lifted | kubefed/lifted) echo "--rest-config-qps 1000 --rest-config-burst 2000" ;;
  esac
}

# A fresh federation whose controller manager is CONTROLLER's; prints its PID.
fresh_federation() {  # CONTROLLER SETTING
  hack/federation.sh down >/dev/null 2>&1 || true
  KF_MANAGER_ARGS=$(manager_args ours "$2") \
    hack/federation.sh up build/release namespaces configmaps >/dev/null
  set -a; . "$KF_RUN_DIR/env"; set +a
  local k="$KF_KUBECTL --kubeconfig $KUBECONFIG"
  if [[ $1 == kubefed ]]; then
    local ours
    ours=$(cat "$KF_RUN_DIR/controller-manager.pid")
    kill -TERM "$ours"
    while [[ -d /proc/$ours ]]; do sleep 0.1; done
    # shellcheck disable=SC2046 # the flags are words
    "$KUBEFED_BIN/controller-manager" --kubeconfig "$KUBECONFIG" --kubefed-namespace kube-federation-system \
      --healthz-addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 $(manager_args kubefed "$2") \
      >"$KF_RUN_DIR/kubefed-controller-manager.log" 2>&1 &
    echo $! >"$KF_RUN_DIR/controller-manager.pid"
  fi
  for ctx in host member1 member2; do $k --context "$ctx" create namespace bench >/dev/null; done
  $k --context host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: bench, namespace: bench}
spec: {placement: {clusters: [{name: member1}, {name: member2}]}}
YAML
  # The namespace in both members: the controller runs and has synced its types.
  local deadline=$((SECONDS + 180))
  until $k --context member1 get namespace bench -o name >/dev/null 2>&1 &&
    $k --context member2 get namespace bench -o jsonpath='{.metadata.labels.kubefed\.io/managed}' 2>/dev/null | grep -q true &&
    $k --context member1 get namespace bench -o jsonpath='{.metadata.labels.kubefed\.io/managed}' 2>/dev/null | grep -q true; do
    ((SECONDS < deadline)) || { echo "vs-kubefed.sh: $1's controller manager did not federate the namespace" >&2; exit 1; }
    sleep 0.5
  done
  cat "$KF_RUN_DIR/controller-manager.pid"
}

get() { sed -E "s/.* $2=([-0-9.]+).*/\1/" <<<" $1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "-"; else printf "%.2f", a / b}'; }
rows=()
lines=()
for count in "${COUNTS[@]}"; do
  for setting in "${SETTINGS[@]}"; do
    declare -A figures=()
    for controller in kubefed ours; do
      pid=$(fresh_federation "$controller" "$setting")
      set -a; . "$KF_RUN_DIR/env"; set +a
      figures[$controller]=$("$BENCH" --kubeconfig "$KUBECONFIG" federated bench "$count" "$pid")
      echo "$controller $setting: ${figures[$controller]}" >&2
    done
    k=${figures[kubefed]} o=${figures[ours]}
    rows+=("| $count | $setting | KubeFed v0.8.1 | $(get "$k" seconds) | $(get "$k" p50) | $(get "$k" p99) | $(get "$k" cpu_seconds) | $(get "$k" peak_rss_mib) | $(get "$k" member_writes_per_object) | $(get "$k" host_writes_per_object) |")
    rows+=("| $count | $setting | kubefed-cpp | $(get "$o" seconds) | $(get "$o" p50) | $(get "$o" p99) | $(get "$o" cpu_seconds) | $(get "$o" peak_rss_mib) | $(get "$o" member_writes_per_object) | $(get "$o" host_writes_per_object) |")
    rows+=("| $count | $setting | ratio kubefed-cpp / KubeFed | $(ratio "$(get "$o" seconds)" "$(get "$k" seconds)") | $(ratio "$(get "$o" p50)" "$(get "$k" p50)") | $(ratio "$(get "$o" p99)" "$(get "$k" p99)") | $(ratio "$(get "$o" cpu_seconds)" "$(get "$k" cpu_seconds)") | $(ratio "$(get "$o" peak_rss_mib)" "$(get "$k" peak_rss_mib)") | $(ratio "$(get "$o" member_writes_per_object)" "$(get "$k" member_writes_per_object)") | $(ratio "$(get "$o" host_writes_per_object)" "$(get "$k" host_writes_per_object)") |")
    lines+=("objects=$count limits=$setting kubefed_seconds=$(get "$k" seconds) ours_seconds=$(get "$o" seconds) time_ratio=$(ratio "$(get "$o" seconds)" "$(get "$k" seconds)") kubefed_cpu_s=$(get "$k" cpu_seconds) ours_cpu_s=$(get "$o" cpu_seconds) cpu_ratio=$(ratio "$(get "$o" cpu_seconds)" "$(get "$k" cpu_seconds)") kubefed_rss_mib=$(get "$k" peak_rss_mib) ours_rss_mib=$(get "$o" peak_rss_mib) rss_ratio=$(ratio "$(get "$o" peak_rss_mib)" "$(get "$k" peak_rss_mib)") kubefed_writes_per_object=$(get "$k" member_writes_per_object)/$(get "$k" host_writes_per_object) ours_writes_per_object=$(get "$o" member_writes_per_object)/$(get "$o" host_writes_per_object)")
  done
done

echo
echo "$(date -u +%F), 2 members, $(nproc) cores; each controller manager on a fresh federation; latency = from the request to the object existing in a member; writes per object = member / host (less the bench's own creates)."
echo
echo "| objects | limits | controller manager | time to full propagation (s) | latency p50 (s) | latency p99 (s) | CPU (s) | peak RSS (MiB) | member writes per object | host writes per object |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${lines[@]}"

#!/usr/bin/env bash
# Informer benchmark: one local cluster holding COUNT ConfigMaps (default 10000); our informer's
# time to list+watch-sync and resident memory per cached object (held once synced, and at the
# peak while listing), next to
# `kubectl get configmaps -A -o json` on the same cluster in the same run. RUNS repetitions
# (default 5) of each, alternating; prints a Markdown table of medians with ratios.
#
# Usage: bench/informer/run.sh [COUNT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-10000}
RUNS=${2:-5}

hack/bootstrap.sh
export KF_RUN_DIR=/dev/shm/kubefed-cpp-bench-informer
cmake --preset release >/dev/null
cmake --build --preset release --target informer_bench >/dev/null
BENCH=build/release/bench/informer/informer_bench

hack/local-clusters.sh reup 1 >/dev/null
trap 'hack/local-clusters.sh down >/dev/null 2>&1' EXIT
set -a; . "$KF_RUN_DIR/env"; set +a
KUBECTL="$KF_KUBECTL --kubeconfig $KUBECONFIG --context host"

"$BENCH" --kubeconfig "$KUBECONFIG" --context host populate bench "$COUNT"
TOTAL=$($KUBECTL get configmaps -A --no-headers | wc -l)

# kubectl's fixed cost (runtime, discovery): the same command on a namespace with no ConfigMaps.
$KUBECTL create namespace bench-empty >/dev/null
kubectl_run() {  # prints "<seconds> <max rss KiB>"
  /usr/bin/time -f '%e %M' -o /tmp/kubefed-bench-time.$$ $KUBECTL get configmaps "$@" -o json >/dev/null
  cat /tmp/kubefed-bench-time.$$
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

ours_s=(); ours_b=(); ours_p=(); ours_a=(); kc_s=(); kc_kib=(); empty_kib=()
for ((run = 1; run <= RUNS; run++)); do
  line=$("$BENCH" --kubeconfig "$KUBECONFIG" --context host sync)
  ours_s+=("$(sed -E 's/.*sync_seconds=([0-9.]+).*/\1/' <<<"$line")")
  ours_b+=("$(sed -E 's/.* bytes_per_object=([0-9.]+).*/\1/' <<<"$line")")
  ours_a+=("$(sed -E 's/.*allocated_bytes_per_object=([0-9.]+).*/\1/' <<<"$line")")
  ours_p+=("$(sed -E 's/.*peak_bytes_per_object=([0-9.]+).*/\1/' <<<"$line")")
  read -r s kib < <(kubectl_run -A)
  kc_s+=("$s"); kc_kib+=("$kib")
  read -r _ kib < <(kubectl_run -n bench-empty)
  empty_kib+=("$kib")
done
rm -f /tmp/kubefed-bench-time.$$

OURS_S=$(printf '%s\n' "${ours_s[@]}" | median)
OURS_B=$(printf '%s\n' "${ours_b[@]}" | median)
OURS_P=$(printf '%s\n' "${ours_p[@]}" | median)
OURS_A=$(printf '%s\n' "${ours_a[@]}" | median)
KC_S=$(printf '%s\n' "${kc_s[@]}" | median)
KC_KIB=$(printf '%s\n' "${kc_kib[@]}" | median)
EMPTY_KIB=$(printf '%s\n' "${empty_kib[@]}" | median)
KC_B=$(awk -v a="$KC_KIB" -v b="$EMPTY_KIB" -v n="$TOTAL" 'BEGIN {printf "%.0f", (a-b)*1024/n}')

echo
echo "ConfigMaps in the cluster: $TOTAL (median of $RUNS runs, $(nproc) cores)"
echo
echo "| | time to list (s) | resident bytes per object (held) | allocated bytes per object (held) | peak resident bytes per object |"
echo "|---|---|---|---|---|"
echo "| kubefed-cpp informer (list + watch, synced) | $OURS_S | $OURS_B | $OURS_A | $OURS_P |"
echo "| kubectl get configmaps -A -o json | $KC_S | | | $KC_B |"
awk -v a="$OURS_S" -v b="$KC_S" -v c="$OURS_P" -v d="$KC_B" \
  'BEGIN {printf "| ratio (ours / kubectl) | %.2f | | | %.2f |\n", a/b, c/d}'

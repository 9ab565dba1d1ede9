#!/usr/bin/env bash
# Where the controller manager's CPU goes while it propagates COUNT (default 2000) federated
# ConfigMaps to two members with every client limit lifted (QPS 1000 / burst 2000): a sampling
# profile (perf, DWARF call graphs) of the controller-manager process over the propagation, and
# per federated object its CPU (user and system), context switches, reconciles and writes.
# Prints a Markdown summary; the perf data is kept in /tmp for `perf report -i`.
#
# SYNC_WORKERS (default 1, KubeFed's): the KubeFedConfig's syncController.maxConcurrentReconciles;
# CREATORS (default 1): writers creating the federated objects in parallel; MANAGER: the
# controller manager binary to profile (default this tree's release build).
#
# Usage: [SYNC_WORKERS=N] [CREATORS=N] [MANAGER=BINARY] bench/propagation/profile.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-2000}
SYNC_WORKERS=${SYNC_WORKERS:-1} CREATORS=${CREATORS:-1}
for setting in COUNT SYNC_WORKERS CREATORS; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || { echo "profile.sh: $setting=${!setting} is not a positive number" >&2; exit 2; }
done

hack/bootstrap.sh
if ! command -v perf >/dev/null 2>&1; then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends linux-perf >/dev/null
fi
export PATH="$(hack/build-kube-binaries.sh):$PATH"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
cmake --build --preset release --target controller-manager kubefedctl propagation_bench | tail -n 3
BENCH=build/release/bench/propagation/propagation_bench

# A run directory of its own, so that other runs of the local clusters are left alone.
export KF_RUN_DIR
KF_RUN_DIR=$(mktemp -d /dev/shm/kubefed-cpp-profile.XXXXXX)
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT
KF_SYNC_CONCURRENCY=$SYNC_WORKERS KF_MANAGER_BINARY=${MANAGER:-build/release/cmd/controller-manager/controller-manager} \
  KF_MANAGER_ARGS="--rest-config-qps 1000 --rest-config-burst 2000 --member-client-qps 1000 --member-client-burst 2000" \
  hack/federation.sh up build/release namespaces configmaps >/dev/null
set -a; . "$KF_RUN_DIR/env"; set +a
K="$KF_KUBECTL --kubeconfig $KUBECONFIG"
for ctx in host member1 member2; do $K --context "$ctx" create namespace bench >/dev/null; done
$K --context host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: bench, namespace: bench}
spec: {placement: {clusters: [{name: member1}, {name: member2}]}}
YAML
PID=$(cat "$KF_RUN_DIR/controller-manager.pid")
METRICS_PORT=$(sed -nE 's/.*Serving \/metrics on .* \(port ([0-9]+)\).*/\1/p' "$KF_RUN_DIR/controller-manager.log")

# utime stime (clock ticks) of the process, and its threads' context switches
cpu_ticks() { awk '{print $14 + $15, $14, $15}' "/proc/$PID/stat"; }
switches() { cat /proc/"$PID"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
adds() { curl -s "127.0.0.1:$METRICS_PORT/metrics" | awk '/^workqueue_adds_total\{name="federatedconfigmap"\}/ {print $2}'; }

read -r _ user0 sys0 < <(cpu_ticks)
switches0=$(switches) adds0=$(adds)
# kept after the clusters (and their run directory) are gone
PERF_DATA=$(mktemp /tmp/kubefed-cpp-profile.XXXXXX.perf.data)
perf record -F 199 --call-graph dwarf,32768 -p "$PID" -o "$PERF_DATA" 2>/dev/null &
PERF=$!
fed=$("$BENCH" --kubeconfig "$KUBECONFIG" federated bench "$COUNT" "$PID" "$CREATORS")
kill -INT "$PERF"
wait "$PERF" || true
read -r _ user1 sys1 < <(cpu_ticks)
switches1=$(switches) adds1=$(adds)
TICK=$(getconf CLK_TCK)

per_object() { awk -v a="$1" -v b="$2" -v n="$COUNT" -v scale="${3:-1}" 'BEGIN {printf "%.2f", (b - a) * scale / n}'; }
get() { sed -E "s/.* $2=([0-9.]+).*/\1/" <<<" $1"; }
# the share of samples whose call chain contains SYMBOL (inclusive), from perf's children view
children=$(perf report -i "$PERF_DATA" --children --sort sym --stdio -g none 2>/dev/null | grep '%')
share() { grep -F "$1" <<<"$children" | head -n 1 | awk '{print $1}'; }
by_dso=$(perf report -i "$PERF_DATA" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%')
dso() { grep -F "$1" <<<"$by_dso" | awk '{s += $1} END {printf "%.1f%%", s}'; }
self=$(perf report -i "$PERF_DATA" --no-children --sort sym --stdio -g none 2>/dev/null | grep '%')
malloc_share=$(grep -E '\] (_int_malloc|malloc|malloc_consolidate|cfree@GLIBC_2.2.5|_int_free|unlink_chunk\.constprop\.0|operator new|operator delete)$' <<<"$self" |
  awk '{s += $1} END {printf "%.1f%%", s}')

echo
echo "$(date -u +%F), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $COUNT federated ConfigMaps to two members, $SYNC_WORKERS sync worker(s), $CREATORS creator(s), every client limit QPS 1000 / burst 2000: $fed"
echo
echo "| per federated object | value |"
echo "|---|---|"
echo "| controller CPU (ms): user | $(per_object "$user0" "$user1" "$((1000 / TICK))") |"
echo "| controller CPU (ms): system | $(per_object "$sys0" "$sys1" "$((1000 / TICK))") |"
echo "| context switches (all threads) | $(per_object "$switches0" "$switches1") |"
echo "| sync work-queue adds (reconciles asked for) | $(per_object "$adds0" "$adds1") |"
echo "| member writes | $(get "$fed" member_writes_per_object) |"
echo "| host writes (federated objects, PropagatedVersions) | $(get "$fed" host_writes_per_object) |"
echo
echo "| where the samples are (perf, $(perf report -i "$PERF_DATA" --stdio 2>/dev/null | sed -nE 's/^# Samples: ([0-9a-zA-Z]+).*/\1/p' | head -n 1) samples) | share |"
echo "|---|---|"
# by thread, as the threads name themselves: a pool's index dropped ("member-io-3": member-io)
perf report -i "$PERF_DATA" --no-children --sort comm --stdio -g none 2>/dev/null | grep '%' |
  awk '{name = $2; sub(/-[0-9]+$/, "", name); share[name] += $1} END {for (n in share) printf "%.1f %s\n", share[n], n}' |
  sort -rn | while read -r pct name; do
    case $name in
      federated*) what="sync workers ($name): reconciles, with their host writes" ;;
      member-io) what="member I/O pool: member writes, informers' lists and watch opens" ;;
      client-io) what="client I/O threads: watch streams read, decoded and applied to the caches" ;;
      dispatch) what="dispatch pool: informer handlers" ;;
      events) what="event senders (one per type)" ;;
      *) what="$name" ;;
    esac
    echo "| thread: $what | $pct% |"
  done
echo "| in the kernel (system calls, TCP over loopback, scheduling) | $(dso '[kernel.kallsyms]') |"
echo "| malloc and free | $malloc_share |"
echo "| TLS (libssl, libcrypto) | $(dso 'libssl') + $(dso 'libcrypto') |"
echo "| JSON parsing (nlohmann parser, inclusive) | $(share 'nlohmann::json_abi_v3_11_2::detail::parser<') |"
echo
echo "perf data: $PERF_DATA (perf report -i $PERF_DATA)"
trap - EXIT
hack/federation.sh down >/dev/null 2>&1

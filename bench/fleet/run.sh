#!/usr/bin/env bash
# Fleet benchmark: for each MEMBERS (default "10 50 100"), a fresh host (a real kube-apiserver
# and etcd of hack/local-clusters.sh, no real members) with the controller manager (release
# build, KubeFed's default KubeFedConfig) and MEMBERS simulated members
# (tests/support/simulated_member: one process, one HTTPS port, token and store per member)
# joined by their KubeFedClusters and Secrets; namespaces and configmaps enabled. Measured by
# bench/fleet/fleet_bench.cc:
#   * join: until every KubeFedCluster is Ready and the federated namespace is in every member;
#   * idle: the controller's CPU over IDLE_SECONDS with N members and nothing to do;
#   * EDITS template edits of one FederatedConfigMap placed in every member, one after the
#     other and no faster than the member clients' QPS refills: from the edit's request to the
#     host until every member has stored it (P50/P99), and the sync queue's wait and reconcile
#     times from the controller's own metrics;
#   * a burst of BURST new FederatedConfigMaps: per object until every member holds it;
#   * the same edits and burst written straight into every member by a direct writer (one
#     writer per member with the controller's member-client limits): the baseline;
#   * the controller's CPU per phase, RSS once joined, peak RSS; per-member cost as the slope
#     between the smallest and the largest MEMBERS.
# Prints a Markdown table, then one line of key=value figures (the largest MEMBERS, and slopes).
#
# Settings (environment):
#   EDITS (100), BURST (100), IDLE_SECONDS (20)
#   MEMBER_QPS, MEMBER_BURST  the member clients' limits, of the controller
#                             (--member-client-qps/-burst) and of the direct writer alike
#                             (default KubeFed's 20/30)
#   HOST_QPS, HOST_BURST      the controller's host client (--rest-config-qps/-burst); unset:
#                             the controller manager's own default (100/200 on a host with API
#                             Priority and Fairness, as this one has)
#   MEMBER_THREADS            network threads of the simulated members (default 2)
#   PROFILE=1                 a perf profile of the controller manager over the largest MEMBERS'
#                             run (perf data kept in /tmp)
#   BENCH_RUN_DIR             the host's run directory (default /dev/shm/kubefed-cpp-bench-fleet)
#
# Usage: [EDITS=..] [BURST=..] [MEMBER_QPS=.. MEMBER_BURST=..] [HOST_QPS=.. HOST_BURST=..]
#        [PROFILE=1] [BENCH_RUN_DIR=DIR] bench/fleet/run.sh [MEMBERS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=("$@")
[[ ${#SIZES[@]} -gt 0 ]] || SIZES=(10 50 100)
EDITS=${EDITS:-100} BURST=${BURST:-100} IDLE_SECONDS=${IDLE_SECONDS:-20}
MEMBER_QPS=${MEMBER_QPS:-20} MEMBER_BURST=${MEMBER_BURST:-30} MEMBER_THREADS=${MEMBER_THREADS:-2}
PROFILE=${PROFILE:-0}
for setting in EDITS BURST IDLE_SECONDS MEMBER_BURST MEMBER_THREADS; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: $setting=${!setting} must be a positive whole number" >&2; exit 2; }
done
[[ $MEMBER_QPS =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "run.sh: MEMBER_QPS=$MEMBER_QPS is not a number (e.g. 20)" >&2; exit 2; }
MANAGER_ARGS="--member-client-qps $MEMBER_QPS --member-client-burst $MEMBER_BURST"
if [[ -n ${HOST_QPS:-}${HOST_BURST:-} ]]; then
  [[ ${HOST_QPS:-} =~ ^[0-9]+([.][0-9]+)?$ && ${HOST_BURST:-} =~ ^[1-9][0-9]*$ ]] ||
    { echo "run.sh: give HOST_QPS and HOST_BURST together, as numbers (e.g. 200 and 400)" >&2; exit 2; }
  MANAGER_ARGS="$MANAGER_ARGS --rest-config-qps $HOST_QPS --rest-config-burst $HOST_BURST"
fi
for members in "${SIZES[@]}"; do
  [[ $members =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: MEMBERS $members is not a positive whole number" >&2; exit 2; }
done
[[ $PROFILE == 0 || $PROFILE == 1 ]] || { echo "run.sh: PROFILE=$PROFILE: give 0 or 1" >&2; exit 2; }

hack/bootstrap.sh
if [[ $PROFILE == 1 ]] && ! command -v perf >/dev/null 2>&1; then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends linux-perf >/dev/null
fi
export PATH="$(hack/build-kube-binaries.sh):$PATH"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
cmake --build --preset release --target controller-manager kubefedctl fleet_bench | tail -n 3
BENCH=build/release/bench/fleet/fleet_bench

export KF_RUN_DIR=${BENCH_RUN_DIR:-/dev/shm/kubefed-cpp-bench-fleet}
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT
LARGEST=$(printf '%s\n' "${SIZES[@]}" | sort -n | tail -n 1)
lines=()
for members in "${SIZES[@]}"; do
  # A fresh host per size, so that no run inherits another's objects or caches.
  hack/federation.sh down >/dev/null 2>&1 || true
  KF_MEMBERS=0 KF_MANAGER_ARGS="$MANAGER_ARGS" hack/federation.sh up build/release namespaces configmaps >/dev/null
  set -a; . "$KF_RUN_DIR/env"; set +a
  PID=$(cat "$KF_RUN_DIR/controller-manager.pid")
  APISERVER_PID=$(awk '$1 == "apiserver-host" {print $2}' "$KF_RUN_DIR/pids")
  METRICS_PORT=$(sed -nE 's/.*Serving \/metrics on .* \(port ([0-9]+)\).*/\1/p' "$KF_RUN_DIR/controller-manager.log")
  perf_pid=""
  if [[ $PROFILE == 1 && $members == "$LARGEST" ]]; then
    PERF_DATA=$(mktemp /tmp/kubefed-cpp-fleet-profile.XXXXXX.perf.data)
    perf record -F 199 --call-graph dwarf,32768 -p "$PID" -o "$PERF_DATA" 2>/dev/null &
    perf_pid=$!
  fi
  line=$("$BENCH" --kubeconfig "$KUBECONFIG" --members "$members" --manager-pid "$PID" \
    --apiserver-pid "$APISERVER_PID" --manager-metrics-port "$METRICS_PORT" \
    --edits "$EDITS" --burst "$BURST" \
    --member-qps "$MEMBER_QPS" --member-burst "$MEMBER_BURST" --idle-seconds "$IDLE_SECONDS" \
    --threads "$MEMBER_THREADS")
  if [[ -n $perf_pid ]]; then
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
  fi
  echo "$line" >&2
  lines+=("$line")
done

get() { sed -E "s/.* $2=([-0-9.]+).*/\1/" <<<" $1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo
echo "$(date -u +%F), commit $(git rev-parse --short HEAD), $(nproc) cores, simulated members (one process, $MEMBER_THREADS network threads), member clients QPS $MEMBER_QPS burst $MEMBER_BURST (controller and direct writer), $EDITS edits, a burst of $BURST objects. Times from the request to the host (direct writer: to the members) until every member has stored the object; per member: each member's arrival."
echo
echo "| members | edit → all members p50 / p99 (s) | direct writer p50 / p99 (s) | ratio p99 | edit → one member p50 / p99 (s) | edit: queue wait / reconcile, mean (ms); reconciles per edit | burst: all objects in all members (s) | burst per object p50 / p99 (s) | direct burst (s), per object p50 / p99 | join: all Ready + namespace (s) | controller CPU: join (s) | idle (ms/s) | per edit (ms) | burst (s) | RSS joined (MiB) | peak RSS (MiB) | member writes per edit |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for line in "${lines[@]}"; do
  idle_ms_per_s=$(awk -v c="$(get "$line" idle_cpu_s)" -v s="$(get "$line" idle_s)" 'BEGIN {printf "%.1f", 1000 * c / s}')
  echo "| $(get "$line" members) | $(get "$line" p50_s) / $(get "$line" p99_s) | $(get "$line" direct_p50_s) / $(get "$line" direct_p99_s) | $(get "$line" ratio_p99) | $(get "$line" member_p50_s) / $(get "$line" member_p99_s) | $(get "$line" queue_wait_ms) / $(get "$line" reconcile_ms); $(get "$line" reconciles_per_edit) | $(get "$line" burst_s) | $(get "$line" burst_p50_s) / $(get "$line" burst_p99_s) | $(get "$line" direct_burst_s), $(get "$line" direct_burst_p50_s) / $(get "$line" direct_burst_p99_s) | $(get "$line" join_s) | $(get "$line" join_cpu_s) | $idle_ms_per_s | $(get "$line" edit_cpu_ms_per_edit) | $(get "$line" burst_cpu_s) | $(get "$line" rss_mib) | $(get "$line" peak_rss_mib) | $(get "$line" member_writes_per_edit) |"
done

# Per-member cost: the slope between the smallest and the largest size.
first=""; last=""
for line in "${lines[@]}"; do
  m=$(get "$line" members)
  [[ -z $first || $m -lt $(get "$first" members) ]] && first=$line
  [[ -z $last || $m -gt $(get "$last" members) ]] && last=$line
done
slope() {
  awk -v a="$(get "$first" "$1")" -v b="$(get "$last" "$1")" -v m="$(get "$first" members)" \
    -v n="$(get "$last" members)" -v scale="${2:-1}" \
    'BEGIN {if (n == m) print "n/a"; else printf "%.3f", (b - a) * scale / (n - m)}'
}
rss_kib_per_member=$(slope rss_mib 1024)
idle_ms_per_member=$(awk -v a="$(get "$first" idle_cpu_s)" -v b="$(get "$last" idle_cpu_s)" \
  -v m="$(get "$first" members)" -v n="$(get "$last" members)" -v s="$IDLE_SECONDS" \
  'BEGIN {if (n == m) print "n/a"; else printf "%.3f", 1000 * (b - a) / s / (n - m)}')
edit_ms_per_member=$(slope edit_cpu_ms_per_edit)
echo
echo "Per member (slope from $(get "$first" members) to $(get "$last" members) members): RSS $rss_kib_per_member KiB, idle CPU $idle_ms_per_member ms per second, CPU per edit $edit_ms_per_member ms."
if [[ -n ${PERF_DATA:-} ]]; then
  echo
  echo "Where the controller manager's samples are over the $LARGEST-member run (join, idle, edits, burst; perf at 199 Hz), by thread:"
  echo
  echo "| thread | share |"
  echo "|---|---|"
  # as the threads name themselves, a pool's index dropped ("member-io-3": member-io)
  perf report -i "$PERF_DATA" --no-children --sort comm --stdio -g none 2>/dev/null | grep '%' |
    awk '{name = $2; sub(/-[0-9]+$/, "", name); share[name] += $1} END {for (n in share) printf "%.1f %s\n", share[n], n}' |
    sort -rn | head -n 8 | while read -r pct name; do echo "| $name | $pct% |"; done
  echo
  echo "perf data: $PERF_DATA (perf report -i $PERF_DATA)"
fi
echo
echo "members=$(get "$last" members) p50_s=$(get "$last" p50_s) p99_s=$(get "$last" p99_s) direct_p99_s=$(get "$last" direct_p99_s) ratio_p99=$(get "$last" ratio_p99) burst_s=$(get "$last" burst_s) burst_p99_s=$(get "$last" burst_p99_s) direct_burst_s=$(get "$last" direct_burst_s) cpu_s=$(get "$last" cpu_s) rss_mib=$(get "$last" rss_mib) peak_rss_mib=$(get "$last" peak_rss_mib) rss_kib_per_member=$rss_kib_per_member idle_cpu_ms_per_s_per_member=$idle_ms_per_member edit_cpu_ms_per_member=$edit_ms_per_member"

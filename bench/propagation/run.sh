#!/usr/bin/env bash
# Propagation benchmark: COUNT federated ConfigMaps (default "1000 5000") placed in every member,
# propagated by the controller manager (release build, KubeFed's default KubeFedConfig), against
# a direct writer that creates the same ConfigMaps straight into the members with the
# controller's member-client limits in the same run. Prints a Markdown table.
#
# One command per measurement (the README's tables):
#   bench/propagation/run.sh 1000 5000                        KubeFed's member limits (QPS 20)
#   HOST_QPS=5 HOST_BURST=10 bench/propagation/run.sh 200     KubeFed's host limits
#   MEMBER_QPS=1000 MEMBER_BURST=2000 HOST_QPS=1000 HOST_BURST=2000 \
#     bench/propagation/run.sh 1000 5000 10000                 limits lifted; scale curve
#   MEMBERS=4 MEMBER_QPS=1000 MEMBER_BURST=2000 HOST_QPS=1000 HOST_BURST=2000 \
#     bench/propagation/run.sh 5000                            four members
#   RESTART=1 MEMBER_QPS=1000 MEMBER_BURST=2000 HOST_QPS=1000 HOST_BURST=2000 \
#     bench/propagation/run.sh 30000                           and a cold restart
#   SYNC_WORKERS="1 4 8" MEMBER_QPS=1000 MEMBER_BURST=2000 HOST_QPS=1000 HOST_BURST=2000 \
#     bench/propagation/run.sh 1000 5000                       limits lifted, more sync workers
#   MANAGERS="BEFORE/controller-manager build/release/cmd/controller-manager/controller-manager" \
#     SYNC_WORKERS=8 MEMBER_QPS=1000 ... bench/propagation/run.sh 5000
#                                                              a tree before a change and this
#                                                              one, in turn, in one invocation
#   RESTART=1 PROBES=10 DIRECT=0 RESTART_BINARIES="BEFORE/controller-manager \
#     build/release/cmd/controller-manager/controller-manager" MEMBER_QPS=1000 MEMBER_BURST=2000 \
#     HOST_QPS=1000 HOST_BURST=2000 bench/propagation/run.sh 30000
#                                                              users' writes during the restart's
#                                                              re-check, a tree before a change and
#                                                              this one restarted in turn
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
#   SYNC_WORKERS              the sync controller's workers per federated type, one run each
#                             (KubeFedConfig spec.syncController.maxConcurrentReconciles;
#                             default KubeFed's 1); each run checks the controller manager runs
#                             that many FederatedConfigMap workers.
#   CREATORS                  how many writers create the federated objects, in parallel
#                             (default 1, one after the other). The time to full propagation
#                             cannot be shorter than the creates take ("creates (s)"): with
#                             enough sync workers one creator is what is measured.
#   MANAGERS                  controller manager binaries, one run each per size and SYNC_WORKERS,
#                             in turn (default this tree's release build); for A/B figures from
#                             one invocation, each with its own direct writer.
#   MEMBERS                   how many members, member1..memberN (default 2); every federated
#                             object is placed in all of them, the direct writer writes to all.
#   RESTART=1                 once every federated object is propagated, stop the controller
#                             manager (SIGTERM), start it again with the same arguments and
#                             measure until it has reconciled every federated object again:
#                             time, member and host writes caused, its CPU and peak RSS.
#   PROBES=N                  with RESTART=1: once the restarted process has begun its re-check
#                             (the FederatedConfigMaps' worker finished a key), N users' writes 100 ms apart, new
#                             FederatedConfigMaps and edits of existing ones in turn, and the
#                             time each takes to reach every member (bench/propagation/
#                             user_probes.h); also the sync queue's depth then (the backlog).
#   RESTART_BINARIES          with RESTART=1: controller managers to restart with, one restart
#                             each, in order, on the same federation (e.g. a build of the tree
#                             before a change, then this tree's); default this tree's.
#   DIRECT=0                  skip the direct writer (when only the restart is of interest).
#   BENCH_LOG_DIR             keep each size's controller manager log there
#                             (controller-manager-COUNT-MEMBERS.log)
#   BENCH_RUN_DIR             the run directory of the clusters (default
#                             /dev/shm/kubefed-cpp-bench-propagation); give one of your own when
#                             another run may use the default. It is taken down at the end.
#
# Usage: [HOST_QPS=.. HOST_BURST=..] [MEMBER_QPS=.. MEMBER_BURST=..] [MEMBERS=N] [RESTART=1]
#        [BENCH_RUN_DIR=DIR] bench/propagation/run.sh [COUNT...]
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(1000 5000)

HOST_QPS=${HOST_QPS:-200} HOST_BURST=${HOST_BURST:-400}
MEMBER_QPS=${MEMBER_QPS:-20} MEMBER_BURST=${MEMBER_BURST:-30}
CREATORS=${CREATORS:-1} MEMBERS=${MEMBERS:-2} RESTART=${RESTART:-0} PROBES=${PROBES:-0} DIRECT=${DIRECT:-1}
for setting in HOST_QPS HOST_BURST MEMBER_QPS MEMBER_BURST; do
  [[ ${!setting} =~ ^[0-9]+([.][0-9]+)?$ ]] || {
    echo "run.sh: $setting=${!setting} is not a number (e.g. $setting=20)" >&2
    exit 2
  }
done
for setting in HOST_BURST MEMBER_BURST MEMBERS CREATORS; do
  [[ ${!setting} =~ ^[0-9]+$ ]] || { echo "run.sh: $setting=${!setting} must be a whole number" >&2; exit 2; }
done
[[ $CREATORS -ge 1 ]] || { echo "run.sh: CREATORS=$CREATORS: give 1 or more writers" >&2; exit 2; }
[[ $MEMBERS -ge 1 ]] || { echo "run.sh: MEMBERS=$MEMBERS: give 1 or more members" >&2; exit 2; }
[[ $RESTART == 0 || $RESTART == 1 ]] || { echo "run.sh: RESTART=$RESTART: give 0 or 1" >&2; exit 2; }
[[ $DIRECT == 0 || $DIRECT == 1 ]] || { echo "run.sh: DIRECT=$DIRECT: give 0 or 1" >&2; exit 2; }
[[ $PROBES =~ ^[0-9]+$ ]] || { echo "run.sh: PROBES=$PROBES must be a whole number" >&2; exit 2; }
read -r -a WORKER_COUNTS <<<"${SYNC_WORKERS:-1}"
for workers in "${WORKER_COUNTS[@]}"; do
  [[ $workers =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: SYNC_WORKERS: $workers is not a positive whole number" >&2; exit 2; }
done
THIS_MANAGER=$PWD/build/release/cmd/controller-manager/controller-manager
read -r -a MANAGER_BINARIES <<<"${MANAGERS:-$THIS_MANAGER}"
for binary in "${MANAGER_BINARIES[@]}"; do
  [[ -x $binary ]] || [[ $(realpath -m "$binary") == "$THIS_MANAGER" ]] ||
    { echo "run.sh: MANAGERS: $binary is not an executable" >&2; exit 2; }
done
read -r -a RESTART_WITH <<<"${RESTART_BINARIES:-$PWD/build/release/cmd/controller-manager/controller-manager}"
for binary in "${RESTART_WITH[@]}"; do
  [[ -x $binary ]] || [[ $binary == */build/release/* ]] ||
    { echo "run.sh: RESTART_BINARIES: $binary is not an executable" >&2; exit 2; }
done
for count in "${COUNTS[@]}"; do
  [[ $count =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: COUNT $count is not a positive whole number" >&2; exit 2; }
done

hack/bootstrap.sh
export PATH="$(hack/build-kube-binaries.sh):$PATH"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
cmake --build --preset release --target controller-manager kubefedctl propagation_bench | tail -n 3
BENCH=build/release/bench/propagation/propagation_bench

export KF_RUN_DIR=${BENCH_RUN_DIR:-/dev/shm/kubefed-cpp-bench-propagation}
MEMBER_NAMES=()
for ((i = 1; i <= MEMBERS; i++)); do MEMBER_NAMES+=("member$i"); done
PLACEMENT=$(printf '{name: %s}, ' "${MEMBER_NAMES[@]}")
trap 'hack/federation.sh down >/dev/null 2>&1' EXIT
rows=()
restarts=()
figures=()
# Counts the controller manager's FederatedConfigMap workers (they name themselves after their
# work queue, cut to 15 characters), so that a run is known to have had the workers it asked for.
sync_workers_running() { cat /proc/"$1"/task/*/comm 2>/dev/null | grep -c '^federatedconfig$' || true; }
# CPU seconds so far of the local clusters' processes by role (etcd, apiserver-host,
# apiserver-member1, ...), from /proc: "ROLE SECONDS" lines.
cluster_cpu() {
  local tick role pid
  tick=$(getconf CLK_TCK)
  while read -r role pid; do
    [[ -r /proc/$pid/stat ]] || continue
    awk -v r="$role" -v t="$tick" '{printf "%s %.2f\n", r, ($14 + $15) / t}' "/proc/$pid/stat"
  done <"$KF_RUN_DIR/pids"
}
process_cpu() { awk -v t="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
# KubeFed's RetryDelay (10 s): a member object's event queues its federated object again that
# long after it; the reconciles so queued by the last member events have run 12 s after.
SETTLE_SECONDS=12
# Milliseconds per object that the roles matching PATTERN spent between two cluster_cpu outputs.
cluster_cpu_ms() { # BEFORE AFTER PATTERN COUNT
  awk -v pattern="$3" -v n="$4" 'NR == FNR {before[$1] = $2; next}
    $1 ~ pattern {s += $2 - before[$1]} END {printf "%.2f", 1000 * s / n}' <(echo "$1") <(echo "$2")
}
run_one() {
  local count=$1 workers=$2 manager=$3
  # A fresh federation per run, so that no run inherits another's objects or caches.
  hack/federation.sh down >/dev/null 2>&1 || true
  KF_SYNC_CONCURRENCY=$workers KF_MANAGER_BINARY=$manager KF_MEMBERS=$MEMBERS KF_MANAGER_ARGS="--rest-config-qps $HOST_QPS --rest-config-burst $HOST_BURST --member-client-qps $MEMBER_QPS --member-client-burst $MEMBER_BURST" \
    hack/federation.sh up build/release namespaces configmaps >/dev/null
  set -a; . "$KF_RUN_DIR/env"; set +a
  K="$KF_KUBECTL --kubeconfig $KUBECONFIG"
  for ctx in host "${MEMBER_NAMES[@]}"; do
    $K --context "$ctx" create namespace bench >/dev/null
    $K --context "$ctx" create namespace bench-direct >/dev/null
  done
  $K --context host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: bench, namespace: bench}
spec: {placement: {clusters: [${PLACEMENT%, }]}}
YAML
  local pid running
  pid=$(cat "$KF_RUN_DIR/controller-manager.pid")
  # The FederatedConfigMaps' sync controller starts once configmaps are enabled (above).
  for _ in $(seq 100); do
    running=$(sync_workers_running "$pid")
    [[ $running -ge $workers ]] && break
    sleep 0.1
  done
  [[ $running -eq $workers ]] || {
    echo "run.sh: asked for $workers sync workers, the controller manager runs $running" >&2
    exit 1
  }
  restart_lines=()
  local cpu_before cpu_after
  cpu_before=$(cluster_cpu)
  local manager_cpu_before settled_cpu_ms
  manager_cpu_before=$(process_cpu "$pid")
  fed=$("$BENCH" --kubeconfig "$KUBECONFIG" --members "$MEMBERS" federated bench "$count" "$pid" "$CREATORS")
  cpu_after=$(cluster_cpu)
  local fed_host fed_members fed_etcd
  fed_host=$(cluster_cpu_ms "$cpu_before" "$cpu_after" '^apiserver-host$' "$count")
  fed_members=$(cluster_cpu_ms "$cpu_before" "$cpu_after" '^apiserver-member' "$count")
  fed_etcd=$(cluster_cpu_ms "$cpu_before" "$cpu_after" '^etcd$' "$count")
  # The bench's CPU figure ends once every object is propagated, before the reconciles that the
  # member objects' events queue RetryDelay later; this one includes them (and the idle process's
  # few milliseconds per second meanwhile).
  sleep "$SETTLE_SECONDS"
  settled_cpu_ms=$(awk -v a="$manager_cpu_before" -v b="$(process_cpu "$pid")" -v n="$count" \
    'BEGIN {printf "%.2f", 1000 * (b - a) / n}')
  if [[ $RESTART == 1 ]]; then
    for binary in "${RESTART_WITH[@]}"; do
      restart_lines+=("$("$BENCH" --kubeconfig "$KUBECONFIG" --members "$MEMBERS" restart "$KF_RUN_DIR" \
        "$PROBES" "$(realpath "$binary")") binary=$binary")
    done
  fi
  direct="mode=direct skipped"
  local direct_members="" direct_etcd=""
  if [[ $DIRECT == 1 ]]; then
    cpu_before=$(cluster_cpu)
    direct=$("$BENCH" --kubeconfig "$KUBECONFIG" --members "$MEMBERS" direct bench-direct "$count" \
      "$MEMBER_QPS" "$MEMBER_BURST")
    cpu_after=$(cluster_cpu)
    direct_members=$(cluster_cpu_ms "$cpu_before" "$cpu_after" '^apiserver-member' "$count")
    direct_etcd=$(cluster_cpu_ms "$cpu_before" "$cpu_after" '^etcd$' "$count")
  fi
  if [[ -n ${BENCH_LOG_DIR:-} ]]; then
    cp "$KF_RUN_DIR/controller-manager.log" "$BENCH_LOG_DIR/controller-manager-$count-$MEMBERS-$workers-$(basename "$(dirname "$manager")").log"
  fi
  # Each measurement as the bench printed it, for the record.
  printf '%s\n' "$fed" ${restart_lines[@]+"${restart_lines[@]}"} "$direct" >&2
  get() { sed -E "s/.* $2=([-0-9.]+).*/\1/" <<<" $1"; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  local label=kubefed-cpp
  [[ ${#MANAGER_BINARIES[@]} -eq 1 ]] || label=$manager
  rows+=("| $count | $MEMBERS | $workers | $label controller manager | $(get "$fed" create_seconds) | $(get "$fed" seconds) | $(get "$fed" p50) | $(get "$fed" p99) | $(get "$fed" cpu_seconds) | $(get "$fed" cpu_ms_per_object) | $settled_cpu_ms | $(get "$fed" peak_rss_mib) | $(get "$fed" rss_growth_kib_per_object) | $(get "$fed" member_writes_per_object) | $(get "$fed" host_writes_per_object) | $(get "$fed" host_apf_rejected) | $fed_host | $fed_members | $fed_etcd |")
  rows+=("| $count | $MEMBERS | | direct writer (QPS $MEMBER_QPS, burst $MEMBER_BURST per member) | | $(get "$direct" seconds) | $(get "$direct" p50) | $(get "$direct" p99) | | | | | | $(get "$direct" member_writes_per_object) | | | | $direct_members | $direct_etcd |")
  rows+=("| $count | $MEMBERS | $workers | ratio controller / direct | | $(ratio "$(get "$fed" seconds)" "$(get "$direct" seconds)") | $(ratio "$(get "$fed" p50)" "$(get "$direct" p50)") | $(ratio "$(get "$fed" p99)" "$(get "$direct" p99)") | | | | | | | | | | | |")
  figures+=("objects=$count members=$MEMBERS sync_workers=$workers manager=$manager creators=$CREATORS create_seconds=$(get "$fed" create_seconds) seconds=$(get "$fed" seconds) direct_seconds=$(get "$direct" seconds) ratio=$(ratio "$(get "$fed" seconds)" "$(get "$direct" seconds)") cpu_ms_per_object=$(get "$fed" cpu_ms_per_object) settled_cpu_ms_per_object=$settled_cpu_ms member_writes_per_object=$(get "$fed" member_writes_per_object) host_writes_per_object=$(get "$fed" host_writes_per_object) host_apiserver_cpu_ms_per_object=$fed_host member_apiservers_cpu_ms_per_object=$fed_members etcd_cpu_ms_per_object=$fed_etcd direct_member_apiservers_cpu_ms_per_object=$direct_members")
  for restart in ${restart_lines[@]+"${restart_lines[@]}"}; do
    restarts+=("| $count | $MEMBERS | $(sed -E 's/.* binary=//' <<<"$restart") | $(get "$restart" stop_seconds) | $(get "$restart" leader_seconds) | $(get "$restart" host_listed_seconds) | $(get "$restart" first_reconcile_seconds) | $(get "$restart" seconds) | $(get "$restart" reconciles) | $(get "$restart" reconcile_ms_mean) | $(get "$restart" cpu_seconds) | $(get "$restart" peak_rss_mib) | $(get "$restart" member_writes) | $(get "$restart" host_writes) | $(get "$restart" settled_seconds) | $(get "$restart" settled_reconciles) | $(get "$restart" settled_cpu_seconds) | $(get "$restart" settled_peak_rss_mib) | $(get "$restart" settled_member_writes) | $(get "$restart" settled_host_writes) | $(get "$restart" backlog) | $(get "$restart" probes_sent_seconds) | $(get "$restart" probe_create_p50) | $(get "$restart" probe_edit_p50) | $(get "$restart" probe_max) | $(get "$restart" probes_failed) |")
  done
}
for count in "${COUNTS[@]}"; do
  for workers in "${WORKER_COUNTS[@]}"; do
    for manager in "${MANAGER_BINARIES[@]}"; do
      run_one "$count" "$workers" "$(realpath -m "$manager")"
    done
  done
done

echo
echo "$(date -u +%F), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $MEMBERS members, $(nproc) cores, host client QPS $HOST_QPS burst $HOST_BURST, member clients QPS $MEMBER_QPS burst $MEMBER_BURST; $CREATORS writer(s) create the federated objects (creates = until the last create returned); latency = from the request to the object existing in a member; RSS growth = peak RSS less the RSS before the first create, per object; CPU per object until every object is propagated, and settled: until ${SETTLE_SECONDS} s later (after the reconciles KubeFed's RetryDelay queues for the member objects' events); API server and etcd CPU from /proc, while the benchmark ran."
echo
echo "| objects | members | sync workers | writer | creates (s) | time to full propagation (s) | latency p50 (s) | latency p99 (s) | controller CPU (s) | CPU per object (ms) | CPU per object, settled (ms) | controller peak RSS (MiB) | RSS growth per object (KiB) | member writes per object | host writes per object | host requests rejected by APF | host API server CPU per object (ms) | member API servers CPU per object (ms) | etcd CPU per object (ms) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
if [[ $RESTART == 0 ]]; then
  # Each run's figures, for scripts.
  echo
  printf '%s\n' "${figures[@]}"
fi
if [[ $RESTART == 1 ]]; then
  echo
  echo "Cold restart: the controller manager stopped (SIGTERM; stop = until the old process exited) and started again with the same arguments; times from starting the new process: leader elected, the host informer's list of the federated objects delivered (the sync queue holding half of them or more), first reconcile, every federated object reconciled (reconciles, their mean duration, the process's CPU, peak RSS and the writes caused until then); then again once KubeFed's later passes (member events after RetryDelay 10 s, NotSynced requeues after clusterAvailableDelay 20 s) are over. First reconcile: of any federated type."
  echo
  echo "Probes (PROBES=$PROBES): users' writes once the re-check began (sent at, from the start of the new process), the sync queue's depth then (backlog), time from each request until every member holds the write (new objects, edits; p50 and the slowest of all); -1: no probes."
  echo
  echo "| objects | members | controller manager | stop (s) | leader (s) | host list delivered (s) | first reconcile (s) | every object reconciled (s) | reconciles | mean reconcile (ms) | CPU (s) | peak RSS (MiB) | member writes | host writes | settled (s) | reconciles | CPU (s) | peak RSS (MiB) | member writes | host writes | backlog | probes sent at (s) | new object p50 (s) | edit p50 (s) | slowest probe (s) | probes failed |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${restarts[@]}"
  # The last restart's figures, for scripts.
  echo
  last=${restart_lines[${#restart_lines[@]}-1]}
  echo "objects=${COUNTS[-1]} members=$MEMBERS restart_seconds=$(get "$last" seconds) backlog=$(get "$last" backlog) probes=$(get "$last" probes) probe_max_s=$(get "$last" probe_max) probes_failed=$(get "$last" probes_failed) member_writes=$(get "$last" member_writes)"
fi

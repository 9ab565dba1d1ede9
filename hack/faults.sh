#!/usr/bin/env bash
# Reliability under faults (issue 12 items 1-5), run by command, outside CI: the release
# controller manager on local clusters (a host and two members, hack/federation.sh), COUNT
# federated ConfigMaps per scenario (default 2000), each placed in both members, and one fault
# injected while they propagate. Every scenario is an automated pass/fail check; the script
# prints a Markdown table (scenario, objects, faults injected, objects lost, duplicate writes,
# time to converge) and exits non-zero when a scenario failed.
#
#   baseline        no fault: the time member1 takes to receive every object (the reference rate)
#   kill9           kill -9 of the controller manager when about half are in member1; restart
#   member-down     member2's API server stopped for DOWN_SECONDS (60) right after the creates
#   member-frozen   member2's API server SIGSTOPped for DOWN_SECONDS, then SIGCONT
#   compaction      etcd compacted three times and the host API server restarted, under load
#   failover        two controller managers; kill -9 of the leader at about half
#
# Checks: every federated object Propagation=True (observedGeneration current), every member
# object present with its template (objects lost = missing or wrong in a member), successful
# member POSTs (201) for ConfigMaps counted by the members' own apiserver_request_total == COUNT
# per member (duplicate writes = the excess; POSTs that failed, e.g. timed out against a frozen
# member, are reported beside), one PropagatedVersion per object recording both members at
# their live resourceVersions; with a member down or frozen it is reported not Ready and member1
# receives its objects no slower than 1.3x the baseline (+10 s); after a failover the standby
# leads within lease duration + retry period (+2 s); the controller manager is never restarted
# except by the scenario.
#
# Usage: [COUNT=2000] [DOWN_SECONDS=60] hack/faults.sh [SCENARIO...]   (default: all, in order)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000}
DOWN_SECONDS=${DOWN_SECONDS:-60}
SCENARIOS=("$@")
[[ ${#SCENARIOS[@]} -gt 0 ]] || SCENARIOS=(baseline kill9 member-down member-frozen compaction failover)
# The member-down and member-frozen checks compare member1's time with the baseline's: without a
# baseline in this run they could check nothing, so it runs first whenever one of them is asked.
if [[ " ${SCENARIOS[*]} " =~ \ member-(down|frozen)\  && ${SCENARIOS[0]} != baseline ]]; then
  others=()
  for scenario in "${SCENARIOS[@]}"; do [[ $scenario == baseline ]] || others+=("$scenario"); done
  SCENARIOS=(baseline "${others[@]}")
fi
CONVERGE_TIMEOUT=$((COUNT / 5 + 300)) # seconds; propagation runs at ~20 objects/s per member
NS_SYSTEM=kube-federation-system
LEASE=4 RETRY=1                        # leader election: --leader-elect-lease-duration/-retry-period

hack/bootstrap.sh >/dev/null
export PATH="$(hack/build-kube-binaries.sh):$PATH"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset release >/dev/null
nice -n 19 cmake --build --preset release --target controller-manager kubefedctl | tail -n 1
BUILD=build/release
MANAGER=$BUILD/cmd/controller-manager/controller-manager

export KF_RUN_DIR=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-faults}
MANAGER_PIDS=() # every controller manager this script started
LOGS=/tmp/kubefed-cpp-faults-logs.$$ # the controller managers' logs, kept after the run
cleanup() {
  mkdir -p "$LOGS" && cp "$KF_RUN_DIR"/manager-*.log "$LOGS"/ 2>/dev/null && echo "logs: $LOGS" >&2
  for pid in "${MANAGER_PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill -TERM "$pid" 2>/dev/null || true; done
  [[ -z ${FROZEN_PID:-} ]] || kill -CONT "$FROZEN_PID" 2>/dev/null || true
  hack/federation.sh down >/dev/null 2>&1 || true
}
trap cleanup EXIT

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", b - a}'; }

# until_true SECONDS COMMAND...: polls COMMAND every 0.5 s until it succeeds; fails on timeout.
until_true() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

log "bringing up the federation ($KF_RUN_DIR)"
hack/federation.sh down >/dev/null 2>&1 || true
hack/federation.sh up "$BUILD" namespaces configmaps >/dev/null
set -a; . "$KF_RUN_DIR/env"; set +a
k() { local ctx=$1; shift; "$KF_KUBECTL" --kubeconfig "$KUBECONFIG" --context "$ctx" "$@"; }
# The controller manager federation.sh started is replaced by ours, with short leader election
# timings so that a failover is measured in seconds.
kill -TERM "$(cat "$KF_RUN_DIR/controller-manager.pid")"
until_true 30 bash -c "! kill -0 $(cat "$KF_RUN_DIR/controller-manager.pid") 2>/dev/null"
rm -f "$KF_RUN_DIR/controller-manager.pid"

# start_manager NAME: starts a controller manager logging to $KF_RUN_DIR/NAME.log; its pid is
# STARTED (not printed: a command substitution's subshell would lose MANAGER_PIDS).
start_manager() {
  "$MANAGER" --kubeconfig "$KUBECONFIG" --kubefed-namespace "$NS_SYSTEM" \
    --healthz-addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 \
    --rest-config-qps 200 --rest-config-burst 400 \
    --leader-elect-lease-duration "${LEASE}s" --leader-elect-renew-deadline "$((LEASE - 1))s" \
    --leader-elect-retry-period "${RETRY}s" >>"$KF_RUN_DIR/$1.log" 2>&1 &
  STARTED=$!
  MANAGER_PIDS+=("$STARTED")
}
leads() { grep -q 'promoted as leader' "$KF_RUN_DIR/$1.log" 2>/dev/null; }
alive() { kill -0 "$1" 2>/dev/null; }

# POSTs for ConfigMaps that a member's API server counted: with CODE only those answered so.
requests() { # requests CLUSTER [CODE]
  k "$1" get --raw /metrics | awk -v code="code=\"${2:-}" '
    /^apiserver_request_total\{/ && /resource="configmaps"/ && /verb="POST"/ && index($0, code) {sum += $NF}
    END {printf "%d\n", sum}'
}
# creates_took NS: seconds from the first to the last federated object's creation.
creates_took() {
  k host -n "$1" get federatedconfigmaps -o json | jq -r '[.items[].metadata.creationTimestamp
    | fromdateiso8601] | (max - min)'
}
managed_in() { # managed_in CLUSTER NS: managed ConfigMaps with their template's data
  k "$1" -n "$2" get configmaps -l kubefed.io/managed=true \
    -o jsonpath='{range .items[*]}{.metadata.name}={.data.index}{"\n"}{end}' |
    awk -F= '$1 == "obj-" $2' | wc -l
}
propagated() { # propagated NS: federated objects with Propagation=True for their generation
  k host -n "$1" get federatedconfigmaps -o json | jq '[.items[] | select(
      .status.observedGeneration == .metadata.generation and
      any(.status.conditions[]?; .type == "Propagation" and .status == "True"))] | length'
}
all_propagated() { [[ $(propagated "$1") -eq $COUNT ]]; }
reaches() { [[ $(managed_in "$1" "$2") -ge $3 ]]; }
not_ready() { # not_ready CLUSTER: its KubeFedCluster has no Ready=True condition
  [[ $(k host -n "$NS_SYSTEM" get kubefedcluster "$1" \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') != True ]]
}
# PropagatedVersions that do not record both members at their live resourceVersions.
stale_versions() { # stale_versions NS
  local live
  live=$(for m in member1 member2; do
    k "$m" -n "$1" get configmaps -l kubefed.io/managed=true \
      -o jsonpath="{range .items[*]}$m {.metadata.name} rv:{.metadata.resourceVersion}{\"\\n\"}{end}"
  done)
  k host -n "$1" get propagatedversions -o json | jq -r --arg live "$live" --argjson count "$COUNT" '
    ($live | split("\n") | map(select(length > 0) | split(" ") | {key: (.[0] + "/" + .[1]), value: .[2]})
      | from_entries) as $versions
    | [.items[] | select(.metadata.name | startswith("configmap-"))] as $records
    | ([$records[] | .metadata.name[10:] as $name
        | select(([.status.clusterVersions[]? | select($versions[.clusterName + "/" + $name] == .version)]
                  | length) != 2)] | length)
      + (if ($records | length) == $count then 0 else ($count - ($records | length) | fabs) end)'
}

# new_namespace NS: the namespace in the host, federated to both members; waits until each
# member holds it and its kube-root-ca.crt (a ConfigMap POST of the members' controller manager
# that must not count as ours).
new_namespace() {
  k host create namespace "$1" >/dev/null
  k host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: $1, namespace: $1}
spec: {placement: {clusters: [{name: member1}, {name: member2}]}}
YAML
  for m in member1 member2; do
    until_true 120 k "$m" -n "$1" get configmap kube-root-ca.crt >/dev/null 2>&1 ||
      { log "namespace $1 never reached $m"; return 1; }
  done
}

# create_objects NS: creates COUNT federated ConfigMaps in the background; CREATOR is its pid.
create_objects() {
  local file=$KF_RUN_DIR/objects-$1.yaml
  for ((i = 0; i < COUNT; i++)); do
    printf -- '---\napiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\nmetadata: {name: obj-%d, namespace: %s}\nspec:\n  template: {data: {index: "%d"}}\n  placement: {clusters: [{name: member1}, {name: member2}]}\n' \
      "$i" "$1" "$i"
  done >"$file"
  k host create -f "$file" >/dev/null &
  CREATOR=$!
}

ROWS=()
FAILED=0
BASELINE_MEMBER1=""
# counts: "<created member1> <created member2> <POSTs member1> <POSTs member2>" so far.
# "<created> <conflicts> <all POSTs>" for member1, then member2 (created: 201; conflicts: 409,
# a create of an object that already existed).
counts() {
  local m
  for m in member1 member2; do printf '%s %s %s ' "$(requests $m 201)" "$(requests $m 409)" "$(requests $m)"; done
  echo
}
# record SCENARIO FAULTS NS START "COUNTS_BEFORE" [EXTRA_FAILURE]
record() {
  local scenario=$1 faults=$2 ns=$3 start=$4 extra=${6:-}
  local -a before after
  read -ra before <<<"$5"
  local ok=1 converge lost dup stale failed_posts
  if until_true "$CONVERGE_TIMEOUT" all_propagated "$ns"; then
    converge="$(elapsed "$start" "$(now)") s (creates took $(creates_took "$ns") s)"
  else
    converge="not within ${CONVERGE_TIMEOUT} s ($(propagated "$ns")/$COUNT)"
    ok=0
  fi
  lost=$((2 * COUNT - $(managed_in member1 "$ns") - $(managed_in member2 "$ns")))
  read -ra after <<<"$(counts)"
  local -a d
  for i in 0 1 2 3 4 5; do d[i]=$((after[i] - before[i])); done
  # Duplicate writes: creates beyond COUNT, and creates of objects that already existed (409).
  # When member2 restarted, its counters restarted too and the creates it counted before are
  # gone: only its conflicts are counted (an object cannot be created twice, so a duplicate
  # create shows as a 409).
  dup=$((d[0] - COUNT + d[1] + d[4]))
  [[ -n ${MEMBER2_RESTARTED:-} ]] || dup=$((dup + d[3] - COUNT))
  failed_posts=$((d[2] - d[0] - d[1] + d[5] - d[3] - d[4]))
  stale=$(stale_versions "$ns")
  ((lost == 0 && dup == 0 && stale == 0)) || ok=0
  [[ -z $extra ]] || ok=0
  local verdict=pass
  ((ok)) || { verdict="FAIL${extra:+: $extra}"; FAILED=1; }
  ((stale == 0)) || verdict="$verdict (stale or missing PropagatedVersions: $stale)"
  local dup_cell=$dup
  ((failed_posts == 0)) || dup_cell="$dup ($failed_posts POSTs failed otherwise)"
  ROWS+=("| $scenario | $COUNT | $faults | $lost | $dup_cell | $converge | $verdict |")
  log "$scenario: lost=$lost duplicate_writes=$dup failed_posts=$failed_posts stale_versions=$stale converge=$converge $verdict"
}

# member1_time NS START: seconds until member1 holds every object (empty on timeout).
member1_time() {
  until_true "$CONVERGE_TIMEOUT" reaches member1 "$1" "$COUNT" && elapsed "$2" "$(now)"
}
slower_than_baseline() { # slower_than_baseline SECONDS: 0 (a failure) when slower than 1.3x
  # baseline + 10 s, or when the baseline measured nothing to compare with
  [[ -n ${BASELINE_MEMBER1:-} ]] || return 0
  awk -v t="$1" -v b="$BASELINE_MEMBER1" 'BEGIN {exit !(t > 1.3 * b + 10)}'
}

start_manager manager-a
LEADER=$STARTED
until_true 60 leads manager-a || { log "the controller manager never led"; exit 1; }
until_true 60 k host -n "$NS_SYSTEM" wait --for condition=Ready --timeout=1s kubefedcluster member1 member2 >/dev/null 2>&1

scenario_baseline() {
  local ns=faults-baseline extra=""
  new_namespace $ns
  local before start t
  before=$(counts) start=$(now)
  create_objects $ns
  t=$(member1_time $ns "$start") || extra="member1 incomplete"
  BASELINE_MEMBER1=$t
  wait "$CREATOR" || extra="creating the objects failed"
  alive "$LEADER" || extra="the controller manager exited"
  record baseline "none (member1 received all in ${t:-?} s)" $ns "$start" "$before" "$extra"
}

scenario_kill9() {
  local ns=faults-kill9 extra=""
  new_namespace $ns
  local before start
  before=$(counts) start=$(now)
  create_objects $ns
  until_true "$CONVERGE_TIMEOUT" reaches member1 $ns $((COUNT / 2)) || extra="half never arrived"
  local at
  at=$(managed_in member1 $ns)
  kill -KILL "$LEADER"
  wait "$LEADER" 2>/dev/null || true
  start_manager manager-a
  LEADER=$STARTED
  wait "$CREATOR" || extra="creating the objects failed"
  alive "$LEADER" || extra="the controller manager exited"
  record kill9 "kill -9 of the controller manager at $at/$COUNT in member1, restarted" $ns "$start" "$before" "$extra"
  alive "$LEADER" || { ROWS[-1]="${ROWS[-1]% |} (restarted process exited) |"; FAILED=1; }
}

# Member2 unavailable (stop|freeze) for DOWN_SECONDS right after the creates started.
member_outage() { # member_outage SCENARIO MODE
  local scenario=$1 mode=$2 ns=faults-$1 extra=""
  new_namespace "$ns"
  local before start t
  before=$(counts) start=$(now)
  create_objects "$ns"
  until_true 60 reaches member2 "$ns" 1 || true
  if [[ $mode == stop ]]; then
    # Its restart resets member2's counters: what it counted so far moves into the baseline.
    # Requests it answered between this reading and its stop are lost, so its creates are not
    # compared with COUNT (see record).
    local -a so_far counted
    read -ra so_far <<<"$(counts)"
    hack/local-clusters.sh stop member2 >/dev/null 2>&1
    read -ra counted <<<"$before"
    before="${counted[*]:0:3} $((counted[3] - so_far[3])) $((counted[4] - so_far[4])) $((counted[5] - so_far[5]))"
    MEMBER2_RESTARTED=1
  else
    FROZEN_PID=$(awk '$1 == "apiserver-member2" {print $2}' "$KF_RUN_DIR/pids")
    kill -STOP "$FROZEN_PID"
  fi
  local fault_start=$SECONDS
  until_true 30 not_ready member2 || extra="member2 never reported not Ready"
  t=$(member1_time "$ns" "$start") || extra="member1 incomplete while member2 was out"
  if [[ -n $t ]] && slower_than_baseline "$t"; then
    extra="member1 slowed: ${t} s against ${BASELINE_MEMBER1:-no baseline} s without the fault"
  fi
  local rest=$((DOWN_SECONDS - (SECONDS - fault_start)))
  ((rest <= 0)) || sleep "$rest" # the outage lasts DOWN_SECONDS, whatever member1 did
  if [[ $mode == stop ]]; then
    hack/local-clusters.sh start member2 >/dev/null 2>&1
  else
    kill -CONT "$FROZEN_PID"
    FROZEN_PID=""
  fi
  wait "$CREATOR" || extra="creating the objects failed"
  alive "$LEADER" || extra="the controller manager exited"
  local what="member2's API server"
  [[ $mode == stop ]] && what="$what stopped" || what="$what SIGSTOPped"
  record "$scenario" "$what for ${DOWN_SECONDS} s (member1 received all in ${t:-?} s, baseline ${BASELINE_MEMBER1:-?} s)" \
    "$ns" "$start" "$before" "$extra"
  MEMBER2_RESTARTED=""
}
scenario_member-down() { member_outage member-down stop; }
scenario_member-frozen() { member_outage member-frozen freeze; }

scenario_compaction() {
  local ns=faults-compaction extra=""
  new_namespace $ns
  local before start
  before=$(counts) start=$(now)
  create_objects $ns
  for fraction in 4 2; do
    until_true "$CONVERGE_TIMEOUT" reaches member1 $ns $((COUNT / fraction)) || true
    hack/local-clusters.sh compact >/dev/null 2>&1
  done
  # The host API server restarts while objects are still being created and propagated.
  hack/local-clusters.sh stop host >/dev/null 2>&1
  hack/local-clusters.sh start host >/dev/null 2>&1
  hack/local-clusters.sh compact >/dev/null 2>&1
  # kubectl create may have failed on the restart: create whatever is missing.
  wait "$CREATOR" || true
  k host create -f "$KF_RUN_DIR/objects-$ns.yaml" >/dev/null 2>&1 || true
  alive "$LEADER" || extra="the controller manager exited"
  record compaction "etcd compacted 3 times, host API server restarted, no process restart" \
    $ns "$start" "$before" "$extra"
}

scenario_failover() {
  local ns=faults-failover extra=""
  local standby standby_name leader_name=manager-a
  start_manager manager-b
  standby=$STARTED
  standby_name=manager-b
  until_true 30 grep -q 'Leader election identity' "$KF_RUN_DIR/manager-b.log" || true
  new_namespace $ns
  local before start
  before=$(counts) start=$(now)
  create_objects $ns
  until_true "$CONVERGE_TIMEOUT" reaches member1 $ns $((COUNT / 2)) || extra="half never arrived"
  local at
  at=$(managed_in member1 $ns)
  leads "$standby_name" && extra="the standby led before the failover"
  kill -KILL "$LEADER"
  local killed=$(now)
  until_true $((LEASE + RETRY + 30)) leads "$standby_name" || extra="the standby never took over"
  local takeover
  takeover=$(elapsed "$killed" "$(now)")
  awk -v t="$takeover" -v max=$((LEASE + RETRY + 2)) 'BEGIN {exit !(t > max)}' &&
    extra="takeover after $takeover s (lease $LEASE s + retry $RETRY s)"
  LEADER=$standby
  wait "$CREATOR" || extra="creating the objects failed"
  record failover "two controller managers, kill -9 of the leader at $at/$COUNT; standby led after $takeover s" \
    $ns "$start" "$before" "$extra"
}

for scenario in "${SCENARIOS[@]}"; do
  log "scenario $scenario"
  "scenario_$scenario"
done

echo
echo "$(date +%F), $(nproc) cores, $COUNT federated ConfigMaps per scenario placed in two members; member client QPS 20 burst 30 (KubeFed's defaults)."
echo
echo "| scenario | objects | faults injected | objects lost | duplicate writes | time to converge | result |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
exit "$FAILED"

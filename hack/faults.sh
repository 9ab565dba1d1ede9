#!/usr/bin/env bash
# Reliability under faults (issue 12 items 1-5), run by command, outside CI: the release
# controller manager on local clusters (a host and two members, hack/federation.sh), COUNT
# federated objects per scenario (default 2000) spread evenly over four busy federated types
# (ConfigMaps, Secrets, ServiceAccounts, Roles: 500 each), each placed in both members, and one
# fault injected while they propagate. Every scenario is an automated pass/fail check; the script
# prints a Markdown table (scenario, objects, faults injected, objects lost, duplicate writes,
# time to converge) and exits non-zero when a scenario failed.
#
#   baseline        no fault: the time member1 takes to receive every object (the reference rate)
#   kill9           kill -9 of the controller manager when about half are in member1; restart
#   member-down     member2's API server stopped for DOWN_SECONDS (60) as propagation begins
#   member-frozen   member2's API server SIGSTOPped for FROZEN_SECONDS (120), then SIGCONT
#
# baseline, member-down and member-frozen time the controller alone: their objects are created
# and reconciled before their namespace is federated, and the clock starts when it is (all
# objects become due at once); the others create the objects while the controller propagates.
#   compaction      etcd compacted three times and the host API server restarted, under load
#   failover        two controller managers; kill -9 of the leader at about half
#
# Checks: every federated object Propagation=True (observedGeneration current), every member
# object present with its template (objects lost = missing or wrong in a member), successful
# member POSTs (201) for the four types counted by the members' own apiserver_request_total ==
# COUNT per member (duplicate writes = the excess; POSTs that failed, e.g. timed out against a
# frozen member, are reported beside), one PropagatedVersion per object recording both members
# at their live resourceVersions; with a member down or frozen it is reported not Ready and
# member1 receives its objects at >= 80 % of the baseline's rate (the baseline runs first, in
# the same invocation; without one the check fails); while member2 is frozen longer than the
# member request timeout (60 s), the controller's requests to it end in errors (counted by its
# rest_client_requests_total) instead of holding their threads; after a failover the standby
# leads within lease duration + retry period (+2 s); the controller manager is never restarted
# except by the scenario.
#
# Usage: [COUNT=2000] [DOWN_SECONDS=60] [FROZEN_SECONDS=120] [KF_BUILD=DIR] hack/faults.sh [SCENARIO...|all]
#        (default: all, in order; KF_BUILD: run another build's controller manager and kubefedctl,
#        e.g. an older commit's build/release, instead of building this tree's)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000}
DOWN_SECONDS=${DOWN_SECONDS:-60}
FROZEN_SECONDS=${FROZEN_SECONDS:-120}
# The four busy types: resource (as the members' metrics name it), federated kind, the
# PropagatedVersion's name prefix (the target kind in lower case).
RESOURCES=(configmaps secrets serviceaccounts roles)
FEDERATED_KINDS=(FederatedConfigMap FederatedSecret FederatedServiceAccount FederatedRole)
PER_TYPE=$((COUNT / ${#RESOURCES[@]}))
COUNT=$((PER_TYPE * ${#RESOURCES[@]}))
FEDERATED_LIST=federatedconfigmaps,federatedsecrets,federatedserviceaccounts,federatedroles
MEMBER_LIST=$(IFS=,; echo "${RESOURCES[*]}")
SCENARIOS=("$@")
[[ ${#SCENARIOS[@]} -gt 0 && " ${SCENARIOS[*]} " != *" all "* ]] ||
  SCENARIOS=(baseline kill9 member-down member-frozen compaction failover)
for scenario in "${SCENARIOS[@]}"; do
  [[ $scenario =~ ^(baseline|kill9|member-down|member-frozen|compaction|failover)$ ]] || {
    echo "hack/faults.sh: unknown scenario '$scenario': baseline, kill9, member-down, member-frozen, compaction, failover or all" >&2
    exit 2
  }
done
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
# KF_BUILD: the binaries of another build (an A/B against an older commit), used as they are.
BUILD=${KF_BUILD:-}
MEASURED_COMMIT=$(git rev-parse --short HEAD) # now: the tree may change while the scenarios run
if [[ -z $BUILD ]]; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  cmake --preset release >/dev/null
  nice -n 19 cmake --build --preset release --target controller-manager kubefedctl | tail -n 1
  BUILD=build/release
fi
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
hack/federation.sh up "$BUILD" namespaces configmaps secrets serviceaccounts roles.rbac.authorization.k8s.io >/dev/null
set -a; . "$KF_RUN_DIR/env"; set +a
k() { local ctx=$1; shift; "$KF_KUBECTL" --kubeconfig "$KUBECONFIG" --context "$ctx" "$@"; }
# The controller manager federation.sh started is replaced by ours, with short leader election
# timings so that a failover is measured in seconds.
kill -TERM "$(cat "$KF_RUN_DIR/controller-manager.pid")"
until_true 30 bash -c "! kill -0 $(cat "$KF_RUN_DIR/controller-manager.pid") 2>/dev/null"
rm -f "$KF_RUN_DIR/controller-manager.pid"

# start_manager NAME: starts a controller manager logging to $KF_RUN_DIR/NAME.log; its pid is
# STARTED and its name STARTED_NAME (not printed: a command substitution's subshell would lose
# MANAGER_PIDS).
start_manager() {
  "$MANAGER" --kubeconfig "$KUBECONFIG" --kubefed-namespace "$NS_SYSTEM" \
    --healthz-addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 \
    --rest-config-qps 200 --rest-config-burst 400 \
    --leader-elect-lease-duration "${LEASE}s" --leader-elect-renew-deadline "$((LEASE - 1))s" \
    --leader-elect-retry-period "${RETRY}s" >>"$KF_RUN_DIR/$1.log" 2>&1 &
  STARTED=$!
  STARTED_NAME=$1
  MANAGER_PIDS+=("$STARTED")
}
leads() { grep -q 'promoted as leader' "$KF_RUN_DIR/$1.log" 2>/dev/null; }
alive() { kill -0 "$1" 2>/dev/null; }

# POSTs for the four types that a member's API server counted: with CODE only those answered so.
requests() { # requests CLUSTER [CODE]
  k "$1" get --raw /metrics | awk -v code="code=\"${2:-}" -v resources="${RESOURCES[*]}" '
    BEGIN {n = split(resources, list, " "); for (i = 1; i <= n; i++) wanted["resource=\"" list[i] "\""] = 1}
    /^apiserver_request_total\{/ && /verb="POST"/ && index($0, code) {
      if (match($0, /resource="[^"]*"/) && (substr($0, RSTART, RLENGTH) in wanted)) sum += $NF
    }
    END {printf "%d\n", sum}'
}
# conflicts_by_resource: "member1 configmaps=N ... member2 ..." (the members' POSTs answered 409), to
# tell a duplicate create of ours from one of the members' own controllers.
conflicts_by_resource() {
  local m
  for m in member1 member2; do
    printf '%s ' "$m"
    k "$m" get --raw /metrics | awk '/^apiserver_request_total\{/ && /verb="POST"/ && /code="409"/ {
        match($0, /resource="[^"]*"/); r = substr($0, RSTART + 10, RLENGTH - 11); n[r] += $NF}
      END {for (r in n) printf "%s=%d ", r, n[r]}'
  done
}
# creates_took NS: seconds from the first to the last federated object's creation.
creates_took() {
  k host -n "$1" get "$FEDERATED_LIST" -o json | jq -r '[.items[].metadata.creationTimestamp
    | fromdateiso8601] | (max - min)'
}
managed_in() { # managed_in CLUSTER NS: managed objects of the four types carrying their template
  k "$1" -n "$2" get "$MEMBER_LIST" -l kubefed.io/managed=true \
    -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.labels.index}{"\n"}{end}' |
    awk -F= '$1 == "obj-" $2' | wc -l
}
propagated() { # propagated NS: federated objects with Propagation=True for their generation
  k host -n "$1" get "$FEDERATED_LIST" -o json | jq '[.items[] | select(
      .status.observedGeneration == .metadata.generation and
      any(.status.conditions[]?; .type == "Propagation" and .status == "True"))] | length'
}
all_propagated() { [[ $(propagated "$1") -eq $COUNT ]]; }
reaches() { [[ $(managed_in "$1" "$2") -ge $3 ]]; }
not_ready() { # not_ready CLUSTER: its KubeFedCluster has no Ready=True condition
  [[ $(k host -n "$NS_SYSTEM" get kubefedcluster "$1" \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') != True ]]
}
# PropagatedVersions that do not record both members at their live resourceVersions (a record is
# named after its target kind in lower case and the object: configmap-obj-7).
stale_versions() { # stale_versions NS
  local live=$KF_RUN_DIR/live-versions # a file: 4,000 lines are too long for an argument
  for m in member1 member2; do
    k "$m" -n "$1" get "$MEMBER_LIST" -l kubefed.io/managed=true \
      -o jsonpath="{range .items[*]}$m {.kind} {.metadata.name} rv:{.metadata.resourceVersion}{\"\\n\"}{end}"
  done >"$live"
  k host -n "$1" get propagatedversions -o json | jq -r --rawfile live "$live" --argjson count "$COUNT" '
    ($live | split("\n") | map(select(length > 0) | split(" ")
      | {key: (.[0] + "/" + (.[1] | ascii_downcase) + "-" + .[2]), value: .[3]}) | from_entries) as $versions
    | [.items[] | select(.metadata.name | test("^(configmap|secret|serviceaccount|role)-obj-"))] as $records
    | ([$records[] | .metadata.name as $name
        | select(([.status.clusterVersions[]? | select($versions[.clusterName + "/" + $name] == .version)]
                  | length) != 2)] | length)
      + (if ($records | length) == $count then 0 else ($count - ($records | length) | fabs) end)'
}

# new_namespace NS: the namespace in the host, federated to both members; waits until each
# member holds it, its kube-root-ca.crt and its default ServiceAccount (POSTs of the members'
# controller manager that must not count as ours).
new_namespace() {
  k host create namespace "$1" >/dev/null
  place_namespace "$1"
  for m in member1 member2; do
    until_true 120 k "$m" -n "$1" get configmap/kube-root-ca.crt serviceaccount/default >/dev/null 2>&1 ||
      { log "namespace $1 never reached $m"; return 1; }
  done
}

# stage_objects NS: the namespace in the host and in both members (not federated yet) and COUNT
# federated objects in it, none placed (a namespaced federated object goes only where its
# FederatedNamespace places it); returns once the controller reconciled them all. place_namespace
# then federates the namespace to both members and every object becomes due at once: the time
# member1 takes from there is the controller's alone, not the host's create speed (kubectl took
# 32 to 177 s to create 2,000 objects here, with the machine's load).
stage_objects() {
  local m
  k host create namespace "$1" >/dev/null
  for m in member1 member2; do k "$m" create namespace "$1" >/dev/null; done
  for m in member1 member2; do # the members' own POSTs, which must not count as ours
    until_true 120 k "$m" -n "$1" get configmap/kube-root-ca.crt serviceaccount/default >/dev/null 2>&1 ||
      { log "namespace $1 never got its defaults in $m"; return 1; }
  done
  create_objects "$1"
  wait "$CREATOR" || { log "creating the objects in $1 failed"; return 1; }
  until_true "$CONVERGE_TIMEOUT" all_observed "$1" || { log "the objects in $1 were never all reconciled"; return 1; }
}
all_observed() { # all_observed NS: every federated object's status is of its generation
  [[ $(k host -n "$1" get "$FEDERATED_LIST" -o json |
    jq '[.items[] | select(.status.observedGeneration == .metadata.generation)] | length') -eq $COUNT ]]
}
place_namespace() { # place_namespace NS: its FederatedNamespace, placing it in both members
  k host apply -f - >/dev/null <<YAML
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: $1, namespace: $1}
spec: {placement: {clusters: [{name: member1}, {name: member2}]}}
YAML
}

# template KIND INDEX: the federated template of object INDEX of that kind (its label carries
# the index that managed_in checks in the members).
template() {
  local labels="metadata: {labels: {index: \"$2\"}}"
  case $1 in
    FederatedConfigMap) echo "{$labels, data: {index: \"$2\"}}" ;;
    FederatedSecret) echo "{$labels, data: {index: $(printf %s "$2" | base64)}}" ;;
    FederatedRole) echo "{$labels, rules: [{apiGroups: [\"\"], resources: [configmaps], verbs: [get]}]}" ;;
    *) echo "{$labels}" ;;
  esac
}
# create_objects NS: creates PER_TYPE federated objects of each busy type in the background,
# the types interleaved so that all four are busy at once; CREATOR is its pid.
create_objects() {
  local file=$KF_RUN_DIR/objects-$1.yaml kind
  for ((i = 0; i < PER_TYPE; i++)); do
    for kind in "${FEDERATED_KINDS[@]}"; do
      printf -- '---\napiVersion: types.kubefed.io/v1beta1\nkind: %s\nmetadata: {name: obj-%d, namespace: %s}\nspec:\n  template: %s\n  placement: {clusters: [{name: member1}, {name: member2}]}\n' \
        "$kind" "$i" "$1" "$(template "$kind" "$i")"
    done
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
  # Fewer creates than COUNT is no duplicate: a create the server answered with an error (its own
  # 60 s timeout, while frozen) may still have stored the object, and that is counted under the
  # failed POSTs; the objects are checked one by one above.
  local excess1=$((d[0] - COUNT)) excess2=$((d[3] - COUNT))
  ((excess1 > 0)) || excess1=0
  ((excess2 > 0)) || excess2=0
  dup=$((excess1 + d[1] + d[4]))
  [[ -n ${MEMBER2_RESTARTED:-} ]] || dup=$((dup + excess2))
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
  ((dup == 0)) || {
    log "$scenario: POSTs answered 409 (AlreadyExists) since each member started, by resource: $(conflicts_by_resource)"
    adoptions "$ns"
  }
}

# adoptions NS: the creates that found the object already there (the controller's Warning
# CreateInClusterFailed events) and, for each, when the member's object was created and by whom,
# so that a duplicate can be told apart: an earlier create of ours (before or after a restart or
# failover, by the member's write times) or another writer.
adoptions() {
  local line object cluster kind name
  k host -n "$1" get events --field-selector reason=CreateInClusterFailed -o json | jq -r '.items[]
    | [(.lastTimestamp // .eventTime), .involvedObject.kind, .involvedObject.name,
       .message] | join("\u001f")' |
    while IFS=$'\x1f' read -r line kind name message; do
      cluster=$(sed -n 's/.* in cluster "\{0,1\}\([a-z0-9-]*\)"\{0,1\}:.*/\1/p' <<<"$message")
      log "create failed: $line $kind/$name: $message"
      [[ -n $cluster ]] || continue
      object=$(tr '[:upper:]' '[:lower:]' <<<"${kind#Federated}")
      k "$cluster" -n "$1" get "$object" "$name" -o json 2>/dev/null | jq -r '"  member object: created \(.metadata.creationTimestamp), resourceVersion \(.metadata.resourceVersion), writes: \([.metadata.managedFields[]? | "\(.manager) \(.operation) \(.time)"] | join("; "))"' >&2
    done
}

# member1_time NS START: seconds until member1 holds every object (empty on timeout).
member1_time() {
  until_true "$CONVERGE_TIMEOUT" reaches member1 "$1" "$COUNT" && elapsed "$2" "$(now)"
}
# rate_against_baseline SECONDS: member1's rate in this scenario as a percentage of the
# baseline's (the same COUNT in BASELINE_MEMBER1 seconds); empty without a baseline.
rate_against_baseline() {
  [[ -n ${BASELINE_MEMBER1:-} ]] || return 0
  awk -v t="$1" -v b="$BASELINE_MEMBER1" 'BEGIN {printf "%.0f", 100 * b / t}'
}
# slowed SECONDS: true (a failure) when member1 received its objects at less than 80 % of the
# baseline's rate, or when no baseline was measured to compare with.
slowed() {
  local rate
  rate=$(rate_against_baseline "$1")
  [[ -z $rate ]] || ((rate < 80))
}
# member_request_errors CLUSTER: requests of the leading controller manager to CLUSTER's API
# server that ended without an answer (timed out or refused), from its rest_client_requests_total.
member_request_errors() {
  local port server_port
  port=$(sed -n 's|^.*Serving /metrics on .* (port \([0-9]*\)).*$|\1|p' "$KF_RUN_DIR/$LEADER_NAME.log" | tail -n 1)
  server_port=$(grep "^KF_$(tr '[:lower:]' '[:upper:]' <<<"$1")_PORT=" "$KF_RUN_DIR/env" | cut -d= -f2)
  local metrics
  metrics=$(curl -fsS "http://127.0.0.1:${port:-0}/metrics") || { echo unreadable; return 0; }
  awk -v host="host=\"127.0.0.1:$server_port\"" '
    /^rest_client_requests_total\{/ && /code="<error>"/ && index($0, host) {sum += $NF}
    END {printf "%d\n", sum}' <<<"$metrics"
}

start_manager manager-a
LEADER=$STARTED LEADER_NAME=$STARTED_NAME
until_true 60 leads manager-a || { log "the controller manager never led"; exit 1; }
until_true 60 k host -n "$NS_SYSTEM" wait --for condition=Ready --timeout=1s kubefedcluster member1 member2 >/dev/null 2>&1

scenario_baseline() {
  local ns=faults-baseline extra=""
  stage_objects $ns || extra="staging the objects failed"
  local before start t
  before=$(counts) start=$(now)
  place_namespace $ns
  t=$(member1_time $ns "$start") || extra="member1 incomplete"
  BASELINE_MEMBER1=$t
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
  LEADER=$STARTED LEADER_NAME=$STARTED_NAME
  wait "$CREATOR" || extra="creating the objects failed"
  alive "$LEADER" || extra="the controller manager exited"
  record kill9 "kill -9 of the controller manager at $at/$COUNT in member1, restarted" $ns "$start" "$before" "$extra"
  alive "$LEADER" || { ROWS[-1]="${ROWS[-1]% |} (restarted process exited) |"; FAILED=1; }
}

# Member2 unavailable (stop|freeze) for SECONDS right after the creates started.
member_outage() { # member_outage SCENARIO MODE SECONDS
  local scenario=$1 mode=$2 outage=$3 ns=faults-$1 extra=""
  stage_objects "$ns" || extra="staging the objects failed"
  local before start t errors_before
  before=$(counts) start=$(now)
  place_namespace "$ns"
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
    errors_before=$(member_request_errors member2)
    FROZEN_PID=$(awk '$1 == "apiserver-member2" {print $2}' "$KF_RUN_DIR/pids")
    kill -STOP "$FROZEN_PID"
  fi
  local fault_start=$SECONDS
  until_true 30 not_ready member2 || extra="member2 never reported not Ready"
  t=$(member1_time "$ns" "$start") || extra="member1 incomplete while member2 was out"
  local rate
  rate=$(rate_against_baseline "${t:-0}")
  if [[ -n $t ]] && slowed "$t"; then
    extra="member1 slowed: ${t} s against ${BASELINE_MEMBER1:-no baseline} s without the fault"
  fi
  local rest=$((outage - (SECONDS - fault_start)))
  ((rest <= 0)) || sleep "$rest" # the outage lasts its SECONDS, whatever member1 did
  local ended=""
  if [[ $mode == stop ]]; then
    hack/local-clusters.sh start member2 >/dev/null 2>&1
  else
    # Requests that reached the frozen server can only end by their deadline (60 s): an outage
    # longer than that must have ended some in errors, or they still hold their threads.
    local errors_after
    errors_after=$(member_request_errors member2)
    kill -CONT "$FROZEN_PID"
    FROZEN_PID=""
    if [[ $errors_before == unreadable || $errors_after == unreadable ]]; then
      ended="?" extra="the controller manager's /metrics could not be read"
    else
      ended=$((errors_after - errors_before))
      ((outage <= 60 || ended > 0)) || extra="no request to the frozen member ended within its deadline"
    fi
  fi
  alive "$LEADER" || extra="the controller manager exited"
  local what="member2's API server"
  [[ $mode == stop ]] && what="$what stopped" || what="$what SIGSTOPped"
  what="$what for ${outage} s (member1 received all in ${t:-?} s, baseline ${BASELINE_MEMBER1:-?} s: ${rate:-?} % of its rate"
  [[ -z $ended ]] || what="$what; $ended requests to member2 ended by their deadline while it was frozen"
  record "$scenario" "$what)" "$ns" "$start" "$before" "$extra"
  MEMBER2_RESTARTED=""
}
scenario_member-down() { member_outage member-down stop "$DOWN_SECONDS"; }
scenario_member-frozen() { member_outage member-frozen freeze "$FROZEN_SECONDS"; }

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
  log "failover: killed the leader at $(date -u +%T.%N)"
  until_true $((LEASE + RETRY + 30)) leads "$standby_name" || extra="the standby never took over"
  local takeover
  takeover=$(elapsed "$killed" "$(now)")
  awk -v t="$takeover" -v max=$((LEASE + RETRY + 2)) 'BEGIN {exit !(t > max)}' &&
    extra="takeover after $takeover s (lease $LEASE s + retry $RETRY s)"
  LEADER=$standby LEADER_NAME=$standby_name
  wait "$CREATOR" || extra="creating the objects failed"
  record failover "two controller managers, kill -9 of the leader at $at/$COUNT; standby led after $takeover s" \
    $ns "$start" "$before" "$extra"
}

for scenario in "${SCENARIOS[@]}"; do
  log "scenario $scenario"
  "scenario_$scenario"
done

echo
echo "$(date +%F), commit $MEASURED_COMMIT${KF_BUILD:+ (binaries from $KF_BUILD)}, $(nproc) cores, $COUNT federated objects per scenario ($PER_TYPE each of ConfigMaps, Secrets, ServiceAccounts and Roles) placed in two members; member client QPS 20 burst 30 (KubeFed's defaults)."
echo
echo "| scenario | objects | faults injected | objects lost | duplicate writes | time to converge | result |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
exit "$FAILED"

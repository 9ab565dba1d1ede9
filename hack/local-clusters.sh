#!/usr/bin/env bash
# Brings up real local Kubernetes API servers for the integration tests and the demo: one etcd,
# a "host" kube-apiserver and N "member" kube-apiservers on 127.0.0.1, each cluster separated
# from the others by its own --etcd-prefix (/kf-<name>/registry), optionally one
# kube-controller-manager per cluster; with KF_WITH_NODE=1 also a real node (containerd, runc,
# kubelet, kube-proxy, kube-scheduler, bridge CNI) inside a network namespace of the run's own.
#
# Usage: hack/local-clusters.sh up [N]        start etcd, host and member1..memberN (default N=2);
#                                             the LAST line on stdout is the kubeconfig path,
#                                             everything else goes to stderr
#        hack/local-clusters.sh down          stop every process recorded in $RUN/pids, remove $RUN
#                                             (safe when nothing is up)
#        hack/local-clusters.sh reup [N]      down, then up: always a fresh, empty set of clusters
#        hack/local-clusters.sh stop CLUSTER  stop one cluster's kube-apiserver (host|memberK)
#        hack/local-clusters.sh start CLUSTER restart it on the same port with the same flags and
#                                             wait until it is ready; its kube-controller-manager,
#                                             if any, is restarted too (fresh informers)
#        hack/local-clusters.sh compact       compact etcd to its current revision; prints it
#        hack/local-clusters.sh status        what runs, its PIDs and ports
#        hack/local-clusters.sh env           print the path of the env file
#        hack/local-clusters.sh exec CMD...   run CMD where the clusters are reachable (inside
#                                             the run's network namespace when it has a node),
#                                             KUBECONFIG set; e.g. `exec kubectl get pods -A`
#        hack/local-clusters.sh load-image ARCHIVE...
#                                             import OCI archives into every node's containerd
#
# `up` when already up: if every recorded process is alive, the apiservers answer /readyz and the
# run was started with the same N and KF_WITH_KCM, it says so and prints the kubeconfig path again
# (exit 0). If it was started with another N/KF_WITH_KCM, or only part of it runs (say a cluster
# left stopped), it fails (exit 1) and asks for `down` (or `start CLUSTER`). A run directory whose
# processes are all gone (a crashed earlier run) is cleaned up and started afresh.
# Not safe to run two commands on the same run directory concurrently.
#
# Forcing "410 Gone" on a watch: the apiservers serve watches from their watch cache, which
# etcd compaction does not touch, so after `compact` a watch from an old resourceVersion still
# works unless the apiservers run with KF_APISERVER_EXTRA_ARGS=--watch-cache=false (then it
# gets 410 "The resourceVersion for the provided watch is too old"); lists with
# resourceVersionMatch=Exact get 410 either way. `stop`+`start` of an apiserver also gives 410
# ("too old resource version") to a watch from a resourceVersion older than the restart.
# `stop` sends SIGTERM, then SIGKILL after KF_STOP_TIMEOUT; open watches are ended by the server
# (a client sees the stream end cleanly), then connections are refused until `start`.
#
# Environment:
#   KF_RUN_DIR                   run directory (default /dev/shm/kubefed-cpp-clusters): pki/,
#                                etcd/, <cluster>/ (logs, tokens, keys, apiserver.cmd), pids,
#                                kubeconfig, env
#   KF_WITH_NODE=1               also a real node for the host cluster (hack/lib/node.sh says
#                                how, and how it keeps the network rule): kube-scheduler,
#                                kube-proxy, kubelet and containerd + runc; implies KF_WITH_KCM=1.
#                                Everything of the run then lives in one network namespace of
#                                ours: the API servers listen on KF_NODE_IP (the kubeconfig's
#                                address) and 127.0.0.1 in there, nothing in the machine's
#                                namespace; reach them with `exec` or by entering KF_NETNS.
#                                Needs the node set: hack/build-kube-binaries.sh node.
#   KF_NODE_MEMBERS=K            with KF_WITH_NODE=1: member1..memberK get a node too (each in
#                                a network namespace of its own, linked to the main one); 0 by
#                                default (members then only store objects: no Pods)
#   KF_NODE_IMAGES               OCI archives (space separated) imported into every node at `up`
#   KF_WITH_KCM=1                also run one kube-controller-manager per cluster (the
#                                ServiceAccount admission plugin stays enabled; `up` waits until
#                                the `default` ServiceAccount exists). Otherwise that plugin is
#                                disabled, since nothing would create ServiceAccounts.
#   KF_ETCD_COMPACTION_INTERVAL  passed as --etcd-compaction-interval to every apiserver
#                                (e.g. 0 disables the apiservers' own compaction); unset keeps
#                                the apiserver default (5m)
#   KF_APISERVER_EXTRA_ARGS      extra kube-apiserver flags, split on spaces
#                                (e.g. "--watch-cache=false")
#   KF_BIN_DIR                   dir with kube-apiserver and kube-controller-manager (default:
#                                the output of hack/build-kube-binaries.sh)
#   KF_KUBECTL, KF_ETCD, KF_ETCDCTL   tool overrides (default kubectl.1.32 from the Google
#                                Cloud SDK, else kubectl on PATH; etcd/etcdctl on PATH)
#   KF_UP_TIMEOUT (120), KF_STOP_TIMEOUT (10)   deadlines in seconds
#
# The env file ($RUN/env) has one KEY=value per line, no quotes, no spaces in values; read it
# with `set -a; . "$KF_RUN_DIR/env"; set +a`. Keys: KF_RUN_DIR, KUBECONFIG, KF_KUBECONFIG,
# KF_CA_FILE, KF_ADMIN_CERT_FILE, KF_ADMIN_KEY_FILE, KF_ETCD_ENDPOINT, KF_CLUSTERS (comma list),
# KF_MEMBER_COUNT, KF_WITH_KCM, KF_KUBECTL, KF_BIN_DIR and per cluster (NAME = HOST, MEMBER1, ...)
# KF_<NAME>_SERVER, KF_<NAME>_PORT, KF_<NAME>_TOKEN (user kf-admin, group system:masters),
# KF_<NAME>_USER_TOKEN (user kf-user, no groups: RBAC denies it everything),
# KF_<NAME>_KUBECONFIG (single-cluster kubeconfig); with a node also KF_WITH_NODE=1, KF_NETNS
# (the network namespace's path, for setns(2) or `nsenter --net=`), KF_NODE_IP, KF_NODE_CLUSTERS
# (comma list), KF_<NAME>_NODE (node name), KF_<NAME>_CONTAINERD_SOCKET.
set -euo pipefail
set +m # no job control: background children must stay in our process group for setsid

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
RUN=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-clusters}
[[ $RUN == /* ]] || RUN=$PWD/$RUN
RUN=${RUN%/}
UP_TIMEOUT=${KF_UP_TIMEOUT:-120}
STOP_TIMEOUT=${KF_STOP_TIMEOUT:-10}
MARKER=.kubefed-cpp-local-clusters
# With a node, every process and check of the run happens inside its network namespace.
NET_PREFIX=()
[[ ! -f $RUN/netns ]] || NET_PREFIX=(nsenter "--net=$(<"$RUN/netns")" --)

log() { printf '[local-clusters] %s\n' "$*" >&2; }
in_net() { "${NET_PREFIX[@]}" "$@"; }
# shellcheck source=hack/lib/node.sh
. "$REPO_ROOT/hack/lib/node.sh"
die() {
  log "error: $*"
  exit 1
}

[[ $RUN =~ ^/[A-Za-z0-9._/+-]+$ ]] ||
  die "KF_RUN_DIR must be a path of [A-Za-z0-9._/+-] characters (the env file has no quoting): '$RUN'"
[[ $RUN != */.. && $RUN != */. && ${#RUN} -gt 5 ]] ||
  die "KF_RUN_DIR '$RUN' is too short or ends in . or ..; use a directory of its own"

# ---------------------------------------------------------------------------------------------
# processes

# alive PID: the process exists, is not a zombie and belongs to this run (its command line names
# the run directory), so a recycled PID is never signalled.
alive() {
  local pid=$1 state
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/stat ]] || return 1
  state=$(sed -E 's/^.*\) ([A-Za-z]).*$/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
  [[ $state != Z && $state != X ]] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$RUN/"
}

pid_of() { # pid_of ROLE: the recorded PID of a role, empty if none
  [[ -f $RUN/pids ]] || return 0
  awk -v role="$1" '$1 == role {pid = $2} END {if (pid != "") print pid}' "$RUN/pids"
}

forget() { # forget ROLE: drop a role from the pids file
  [[ -f $RUN/pids ]] || return 0
  awk -v role="$1" '$1 != role' "$RUN/pids" >"$RUN/pids.tmp"
  mv "$RUN/pids.tmp" "$RUN/pids"
}

# launch ROLE LOG CMDFILE: starts the command in CMDFILE (one argument per line) in its own
# session, detached from our stdin/stdout/stderr (so CTest does not wait for it), logs appended
# to LOG, and records its PID.
launch() {
  local role=$1 logfile=$2 cmdfile=$3 args pid
  mapfile -t args <"$cmdfile"
  printf '\n==== %s: %s\n' "$(date -u +%FT%TZ)" "${args[*]}" >>"$logfile"
  # Go's collector runs when the heap has grown 4-fold instead of 2-fold (unless the caller sets
  # GOGC): the servers of a test run then take about a tenth less CPU (measured on the end-to-end
  # propagation tests: 101 instead of 115 CPU-seconds for the API servers, etcd and
  # kube-controller-managers) for a larger heap, a few hundred MiB per API server.
  (cd / && GOGC=${GOGC:-400} exec setsid "${NET_PREFIX[@]}" "${args[@]}" </dev/null >>"$logfile" 2>&1) &
  pid=$!
  forget "$role"
  printf '%s %s\n' "$role" "$pid" >>"$RUN/pids"
  # until the subshell has exec'd, its command line is ours, and alive() would not know it
  for _ in {1..50}; do
    tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "${args[0]}" && return 0
    [[ -e /proc/$pid ]] || return 0
    sleep 0.1
  done
}

# terminate PID...: SIGTERM, wait up to STOP_TIMEOUT seconds, then SIGKILL what is left.
terminate() {
  local pid left deadline=$((SECONDS + STOP_TIMEOUT))
  for pid in "$@"; do
    if alive "$pid"; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  while :; do
    left=()
    for pid in "$@"; do alive "$pid" && left+=("$pid"); done
    ((${#left[@]} > 0)) || return 0
    if ((SECONDS >= deadline)); then
      # kube-apiserver waits up to its --request-timeout (60s) for open connections to close
      log "still running ${STOP_TIMEOUT}s after SIGTERM, sending SIGKILL: ${left[*]}"
      for pid in "${left[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
      sleep 0.5
      return 0
    fi
    sleep 0.2
  done
}

# stop_recorded: stops every recorded process: controller managers (they hold watches that delay
# an apiserver's graceful shutdown), then apiservers and anything else, etcd last.
stop_recorded() {
  [[ -f $RUN/pids ]] || return 0
  local role pid kcms=() others=() etcds=() containerds=()
  while read -r role pid; do
    [[ -n ${pid:-} ]] || continue
    case $role in
      kcm-* | kubelet-* | kube-proxy-* | kube-scheduler-*) kcms+=("$pid") ;;
      containerd-*) containerds+=("$pid") ;;
      etcd) etcds+=("$pid") ;;
      *) others+=("$pid") ;;
    esac
  done <"$RUN/pids"
  ((${#kcms[@]} == 0)) || terminate "${kcms[@]}"
  if [[ -f $RUN/netns ]]; then
    node_kill_pods
    ((${#containerds[@]} == 0)) || terminate "${containerds[@]}"
    node_kill_pods # shims that outlived their containerd
  fi
  ((${#others[@]} == 0)) || terminate "${others[@]}"
  ((${#etcds[@]} == 0)) || terminate "${etcds[@]}"
  rm -f "$RUN/pids"
}

any_recorded_alive() {
  [[ -f $RUN/pids ]] || return 1
  local role pid
  while read -r role pid; do alive "${pid:-}" && return 0; done <"$RUN/pids"
  return 1
}

log_tail() { # log_tail FILE WHAT
  log "$2 failed; last 30 lines of $1:"
  tail -n 30 "$1" >&2 || true
}

# ---------------------------------------------------------------------------------------------
# tools, ports, files

resolve_tools() {
  BIN_DIR=${KF_BIN_DIR:-}
  [[ -n $BIN_DIR ]] || BIN_DIR=$("$REPO_ROOT/hack/build-kube-binaries.sh")
  APISERVER=$BIN_DIR/kube-apiserver
  KCM_BIN=$BIN_DIR/kube-controller-manager
  [[ -x $APISERVER ]] || die "no kube-apiserver in $BIN_DIR"
  ETCD_BIN=${KF_ETCD:-$(command -v etcd || true)}
  [[ -x $ETCD_BIN ]] || die "etcd not found (apt-get install etcd-server, or set KF_ETCD)"
  resolve_kubectl
}

resolve_kubectl() {
  KUBECTL=${KF_KUBECTL:-}
  if [[ -z $KUBECTL ]]; then
    if [[ -x /usr/lib/google-cloud-sdk/bin/kubectl.1.32 ]]; then
      KUBECTL=/usr/lib/google-cloud-sdk/bin/kubectl.1.32
    else
      KUBECTL=$(command -v kubectl || true)
    fi
  fi
  [[ -x $KUBECTL ]] || die "kubectl not found (set KF_KUBECTL)"
}

resolve_etcdctl() {
  ETCDCTL=${KF_ETCDCTL:-$(command -v etcdctl || true)}
  [[ -x $ETCDCTL ]] || die "etcdctl not found (apt-get install etcd-client, or set KF_ETCDCTL)"
}

# free_ports N: N distinct free loopback ports, preferably below the ephemeral range so that an
# outgoing connection cannot take a stopped apiserver's port before `start` rebinds it.
free_ports() {
  in_net python3 - "$1" <<'EOF'
import random, socket, sys
n = int(sys.argv[1])
try:
    lo = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except Exception:
    lo = 32768
held = []
def try_bind(port):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        s.close()
        return False
    held.append(s)
    return True
candidates = list(range(20000, lo)) if lo > 21000 else []
random.shuffle(candidates)
for port in candidates:
    if len(held) == n:
        break
    try_bind(port)
while len(held) < n:
    try_bind(0)
print(" ".join(str(s.getsockname()[1]) for s in held))
EOF
}

upper() { tr '[:lower:]' '[:upper:]' <<<"$1"; }
b64() { base64 -w0 <"$1"; }

make_pki() {
  local pki=$RUN/pki
  mkdir -p "$pki"
  (
    cd "$pki"
    openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=kubefed-cpp-test-ca" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
      -keyout ca.key -out ca.crt 2>/dev/null
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" \
      "extendedKeyUsage=serverAuth" \
      "subjectAltName=IP:127.0.0.1,${NODE_SANS:-}DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc" \
      >server.ext
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" \
      "extendedKeyUsage=clientAuth" >client.ext
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=kube-apiserver" \
      -keyout apiserver.key -out apiserver.csr 2>/dev/null
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 \
      -days 3650 -extfile server.ext -out apiserver.crt 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/O=system:masters/CN=kf-admin" \
      -keyout admin.key -out admin.csr 2>/dev/null
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 \
      -days 3650 -extfile client.ext -out admin.crt 2>/dev/null
    rm -f ./*.csr
    chmod 600 ./*.key
  )
}

make_cluster_files() { # make_cluster_files NAME: service-account key pair and static tokens
  local c=$RUN/$1 admin user
  mkdir -p "$c"
  openssl genrsa -out "$c/sa.key" 2048 2>/dev/null
  openssl rsa -in "$c/sa.key" -pubout -out "$c/sa.pub" 2>/dev/null
  chmod 600 "$c/sa.key"
  admin=$1-admin-$(openssl rand -hex 16)
  user=$1-user-$(openssl rand -hex 16)
  printf '%s,kf-admin,uid-kf-admin,"system:masters"\n%s,kf-user,uid-kf-user\n' "$admin" "$user" \
    >"$c/tokens.csv"
  chmod 600 "$c/tokens.csv"
  printf '%s\n' "$admin" >"$c/admin.token"
  printf '%s\n' "$user" >"$c/user.token"
  chmod 600 "$c/admin.token" "$c/user.token"
}

kubeconfig_entries() { # kubeconfig_entries NAME PORT: clusters/users/contexts YAML items
  local name=$1 port=$2 pki=$RUN/pki
  printf -- '- name: %s\n  cluster:\n    server: https://%s\n    certificate-authority-data: %s\n' \
    "$name" "${SERVER_ADDRESS:-127.0.0.1}:$port" "$(b64 "$pki/ca.crt")" >>"$TMP_CLUSTERS"
  printf -- '- name: %s\n  user:\n    client-certificate-data: %s\n    client-key-data: %s\n' \
    "$name" "$(b64 "$pki/admin.crt")" "$(b64 "$pki/admin.key")" >>"$TMP_USERS"
  printf -- '- name: %s\n  context:\n    cluster: %s\n    user: %s\n' "$name" "$name" "$name" >>"$TMP_CONTEXTS"
}

# write_kubeconfig FILE CURRENT NAME:PORT...
write_kubeconfig() {
  local file=$1 current=$2 entry
  shift 2
  TMP_CLUSTERS=$(mktemp) TMP_USERS=$(mktemp) TMP_CONTEXTS=$(mktemp)
  for entry in "$@"; do kubeconfig_entries "${entry%%:*}" "${entry#*:}"; done
  {
    printf 'apiVersion: v1\nkind: Config\npreferences: {}\nclusters:\n'
    cat "$TMP_CLUSTERS"
    printf 'users:\n'
    cat "$TMP_USERS"
    printf 'contexts:\n'
    cat "$TMP_CONTEXTS"
    printf 'current-context: %s\n' "$current"
  } >"$file.tmp"
  rm -f "$TMP_CLUSTERS" "$TMP_USERS" "$TMP_CONTEXTS"
  chmod 600 "$file.tmp"
  mv "$file.tmp" "$file"
}

write_apiserver_cmd() { # write_apiserver_cmd NAME PORT
  local name=$1 port=$2 c=$RUN/$1 extra=()
  local args=(
    "$APISERVER"
    --secure-port="$port"
    --tls-cert-file="$RUN/pki/apiserver.crt" --tls-private-key-file="$RUN/pki/apiserver.key"
    --client-ca-file="$RUN/pki/ca.crt"
    --requestheader-client-ca-file="$RUN/pki/ca.crt" --requestheader-allowed-names=front-proxy-client
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group
    --requestheader-extra-headers-prefix=X-Remote-Extra-
    --token-auth-file="$c/tokens.csv"
    --service-account-issuer=https://kubernetes.default.svc
    --service-account-key-file="$c/sa.pub" --service-account-signing-key-file="$c/sa.key"
    --authorization-mode=RBAC
    --etcd-servers="$ETCD_URL" --etcd-prefix="/kf-$name/registry"
    --service-cluster-ip-range="$NODE_SERVICE_CIDR"
    --allow-privileged=true
    --profiling=false
    # without it, an open watch keeps a SIGTERMed apiserver alive for its --request-timeout (60s)
    --shutdown-watch-termination-grace-period=2s
    --v=1
  )
  [[ $WITH_KCM == 1 ]] || args+=(--disable-admission-plugins=ServiceAccount)
  if [[ $WITH_NODE == 1 ]]; then
    # inside our network namespace: reachable from the pods (the `kubernetes` Service's endpoint
    # is the node address) and from the node; the API server's client to kubelets is the admin
    args+=(--bind-address=0.0.0.0 --advertise-address="$NODE_IP" --endpoint-reconciler-type=lease
      --kubelet-client-certificate="$RUN/pki/admin.crt" --kubelet-client-key="$RUN/pki/admin.key"
      --kubelet-preferred-address-types=InternalIP)
  else
    args+=(--bind-address=127.0.0.1 --advertise-address=127.0.0.1 --endpoint-reconciler-type=none)
  fi
  [[ -z ${KF_ETCD_COMPACTION_INTERVAL:-} ]] ||
    args+=(--etcd-compaction-interval="$KF_ETCD_COMPACTION_INTERVAL")
  read -ra extra <<<"${KF_APISERVER_EXTRA_ARGS:-}"
  ((${#extra[@]} == 0)) || args+=("${extra[@]}")
  printf '%s\n' "${args[@]}" >"$c/apiserver.cmd"
  printf '%s\n' "$port" >"$c/port"
}

write_kcm_cmd() { # write_kcm_cmd NAME PORT
  local name=$1 port=$2 c=$RUN/$1
  mkdir -p "$c/kcm-certs"
  printf '%s\n' "$KCM_BIN" \
    --kubeconfig="$c/kubeconfig" --authentication-kubeconfig="$c/kubeconfig" \
    --authorization-kubeconfig="$c/kubeconfig" \
    --bind-address=127.0.0.1 --secure-port="$port" --cert-dir="$c/kcm-certs" \
    --leader-elect=false --controllers='*' \
    --service-account-private-key-file="$c/sa.key" --root-ca-file="$RUN/pki/ca.crt" \
    --use-service-account-credentials=false --cluster-name="$name" --v=1 >"$c/kcm.cmd"
  printf '%s\n' "$port" >"$c/kcm-port"
}

# ---------------------------------------------------------------------------------------------
# readiness

# wait_etcd DEADLINE: 0 ready, 1 failed, 2 port in use
wait_etcd() {
  local deadline=$1 pid
  pid=$(pid_of etcd)
  while :; do
    if ! alive "$pid"; then
      grep -q 'address already in use' "$RUN/etcd/etcd.log" && return 2
      log_tail "$RUN/etcd/etcd.log" "etcd (exited)"
      return 1
    fi
    in_net curl -fsS --max-time 2 "$ETCD_URL/health" 2>/dev/null | grep -q '"health":"true"' && return 0
    if ((SECONDS >= deadline)); then
      log_tail "$RUN/etcd/etcd.log" "etcd (no /health within deadline)"
      return 1
    fi
    sleep 0.2
  done
}

# wait_apiserver NAME DEADLINE: /readyz 200, then `kubectl get ns default kube-system`.
# 0 ready, 1 failed, 2 port in use
wait_apiserver() {
  local name=$1 deadline=$2 c=$RUN/$1 pid port code
  pid=$(pid_of "apiserver-$name")
  port=$(<"$c/port")
  while :; do
    if ! alive "$pid"; then
      grep -q 'address already in use' "$c/apiserver.log" && return 2
      log_tail "$c/apiserver.log" "kube-apiserver $name (exited)"
      return 1
    fi
    code=$(in_net curl -sS -o /dev/null -w '%{http_code}' --max-time 3 --cacert "$RUN/pki/ca.crt" \
      "https://127.0.0.1:$port/readyz" 2>/dev/null || true)
    [[ $code == 200 ]] && break
    if ((SECONDS >= deadline)); then
      log_tail "$c/apiserver.log" "kube-apiserver $name (no /readyz 200 within deadline, last code $code)"
      return 1
    fi
    sleep 0.3
  done
  until in_net "$KUBECTL" --kubeconfig "$c/kubeconfig" --request-timeout=5s get ns default kube-system \
    >/dev/null 2>"$c/kubectl-wait.err"; do
    if ! alive "$pid" || ((SECONDS >= deadline)); then
      cat "$c/kubectl-wait.err" >&2
      log_tail "$c/apiserver.log" "kube-apiserver $name (namespaces default/kube-system)"
      return 1
    fi
    sleep 0.3
  done
  rm -f "$c/kubectl-wait.err"
}

# wait_kcm NAME DEADLINE: /healthz 200 and the `default` ServiceAccount exists.
wait_kcm() {
  local name=$1 deadline=$2 c=$RUN/$1 pid port code
  pid=$(pid_of "kcm-$name")
  port=$(<"$c/kcm-port")
  while :; do
    if ! alive "$pid"; then
      grep -q 'address already in use' "$c/kcm.log" && return 2
      log_tail "$c/kcm.log" "kube-controller-manager $name (exited)"
      return 1
    fi
    code=$(in_net curl -ksS -o /dev/null -w '%{http_code}' --max-time 3 "https://127.0.0.1:$port/healthz" \
      2>/dev/null || true)
    [[ $code == 200 ]] &&
      in_net "$KUBECTL" --kubeconfig "$c/kubeconfig" --request-timeout=5s -n default get serviceaccount \
        default >/dev/null 2>&1 && return 0
    if ((SECONDS >= deadline)); then
      log_tail "$c/kcm.log" "kube-controller-manager $name (healthz $code / default ServiceAccount)"
      return 1
    fi
    sleep 0.5
  done
}

# ---------------------------------------------------------------------------------------------
# commands

load_env() {
  [[ -f $RUN/env ]] || die "nothing is up in $RUN (no env file); run: $0 up"
  set -a
  # shellcheck disable=SC1091
  . "$RUN/env"
  set +a
}

cluster_names() { # cluster_names N
  local i
  printf 'host\n'
  for ((i = 1; i <= $1; i++)); do printf 'member%d\n' "$i"; done
}

# up_reuse N: an earlier `up` of this run directory is usable as it is
up_reuse() {
  local n=$1 name
  load_env
  local nodes=${KF_NODE_CLUSTERS:-}
  if [[ $KF_MEMBER_COUNT != "$n" || $KF_WITH_KCM != "$WITH_KCM" || ${KF_WITH_NODE:-0} != "$WITH_NODE" ||
    $nodes != "$(
      IFS=,
      printf '%s' "${NODE_CLUSTERS[*]}"
    )" ]]; then
    die "$RUN is already up with $KF_MEMBER_COUNT members, KF_WITH_KCM=$KF_WITH_KCM," \
      "KF_WITH_NODE=${KF_WITH_NODE:-0} (asked: $n, $WITH_KCM, $WITH_NODE); run '$0 down' first"
  fi
  alive "$(pid_of etcd)" || die "$RUN: etcd is not running; run '$0 down' first"
  for name in ${KF_CLUSTERS//,/ }; do
    alive "$(pid_of "apiserver-$name")" ||
      die "$RUN is partly up: kube-apiserver $name is not running; '$0 start $name' or '$0 down'"
    [[ $WITH_KCM != 1 ]] || alive "$(pid_of "kcm-$name")" ||
      die "$RUN is partly up: kube-controller-manager $name is not running; run '$0 down' first"
    in_net curl -fsS -o /dev/null --max-time 3 --cacert "$KF_CA_FILE" \
      "https://127.0.0.1:$(<"$RUN/$name/port")/readyz" ||
      die "$RUN: kube-apiserver $name is not ready; run '$0 down' first"
  done
  log "already up in $RUN (${KF_CLUSTERS}); reusing it"
  printf '%s\n' "$RUN/kubeconfig"
}

cmd_up() {
  local n=${1:-2} names name i ports port_list rc attempt deadline start_time=$SECONDS
  [[ $n =~ ^[0-9]+$ && $n -le 20 ]] || die "up: N must be 0..20, got '$n'"
  WITH_KCM=${KF_WITH_KCM:-0}
  [[ $WITH_KCM == 1 ]] || WITH_KCM=0
  WITH_NODE=${KF_WITH_NODE:-0}
  [[ $WITH_NODE == 1 ]] || WITH_NODE=0
  # the node's Deployments need kube-controller-manager
  [[ $WITH_NODE == 0 ]] || WITH_KCM=1
  NODE_MEMBERS=0
  [[ $WITH_NODE == 0 ]] || NODE_MEMBERS=${KF_NODE_MEMBERS:-0}
  [[ $NODE_MEMBERS =~ ^[0-9]$ ]] && ((NODE_MEMBERS <= n)) ||
    die "KF_NODE_MEMBERS must be 0..$n (members with a node), got '$NODE_MEMBERS'"
  NODE_CLUSTERS=()
  if [[ $WITH_NODE == 1 ]]; then
    NODE_CLUSTERS=(host)
    for ((i = 1; i <= NODE_MEMBERS; i++)); do NODE_CLUSTERS+=("member$i"); done
  fi

  if [[ -d $RUN ]]; then
    if [[ -f $RUN/env ]] && any_recorded_alive; then
      up_reuse "$n"
      return 0
    fi
    if any_recorded_alive; then
      die "$RUN has running processes but no env file (an 'up' in progress or interrupted);" \
        "run '$0 down' first"
    fi
    [[ -e $RUN/$MARKER || -z $(ls -A "$RUN") ]] ||
      die "$RUN exists and is not a local-clusters run directory; refusing to use it"
    log "removing stale run directory $RUN (none of its processes runs)"
    [[ ! -f $RUN/netns ]] || node_cleanup
    rm -rf "$RUN"
  fi

  resolve_tools
  [[ $WITH_KCM != 1 || -x $KCM_BIN ]] || die "no kube-controller-manager in $BIN_DIR"
  [[ $WITH_NODE != 1 ]] || node_resolve_tools
  mapfile -t names < <(cluster_names "$n")
  mkdir -p "$RUN/etcd"
  : >"$RUN/$MARKER"
  # From here on, a failure stops whatever this invocation started (logs stay for inspection).
  trap 'rc=$?; if ((rc != 0)); then log "up failed; stopping what it started (logs kept in $RUN)"; stop_recorded; [[ ! -f $RUN/netns ]] || node_cleanup; rm -f "$RUN/env" "$RUN/kubeconfig" "$RUN/netns"; fi' EXIT
  trap 'exit 130' INT TERM HUP

  log "run directory $RUN; clusters: ${names[*]}; KF_WITH_KCM=$WITH_KCM KF_WITH_NODE=$WITH_NODE"
  if [[ $WITH_NODE == 1 ]]; then
    node_netns_create
    NODE_SANS="IP:$NODE_IP,IP:$NODE_SERVICE_IP,"
    SERVER_ADDRESS=$NODE_IP
  fi
  make_pki
  for name in "${names[@]}"; do make_cluster_files "$name"; done

  # etcd (retried on a port clash)
  for attempt in 1 2 3; do
    read -r ETCD_PORT ETCD_PEER_PORT < <(free_ports 2)
    ETCD_URL=http://127.0.0.1:$ETCD_PORT
    printf '%s\n' "$ETCD_BIN" --name=kf --data-dir="$RUN/etcd/data" \
      --listen-client-urls="$ETCD_URL" --advertise-client-urls="$ETCD_URL" \
      --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
      --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
      --initial-cluster="kf=http://127.0.0.1:$ETCD_PEER_PORT" \
      --log-outputs=stderr --logger=zap >"$RUN/etcd/etcd.cmd"
    # etcd reads ETCD_* variables; do not let any leak in
    # shellcheck disable=SC2046
    unset $(compgen -e | grep -E '^ETCD(CTL)?_' || true)
    launch etcd "$RUN/etcd/etcd.log" "$RUN/etcd/etcd.cmd"
    rc=0
    wait_etcd $((SECONDS + 30)) || rc=$?
    ((rc == 0)) && break
    ((rc == 2 && attempt < 3)) || exit 1
    log "etcd port $ETCD_PORT/$ETCD_PEER_PORT taken; retrying with new ports"
    rm -rf "$RUN/etcd/data"
  done
  log "etcd ready at $ETCD_URL ($((SECONDS - start_time))s)"

  # apiservers, all started at once; a port clash restarts that one on a new port
  read -ra port_list < <(free_ports "${#names[@]}")
  for i in "${!names[@]}"; do
    name=${names[$i]}
    write_apiserver_cmd "$name" "${port_list[$i]}"
    write_kubeconfig "$RUN/$name/kubeconfig" "$name" "$name:${port_list[$i]}"
    launch "apiserver-$name" "$RUN/$name/apiserver.log" "$RUN/$name/apiserver.cmd"
  done
  deadline=$((SECONDS + UP_TIMEOUT))
  for name in "${names[@]}"; do
    for attempt in 1 2 3; do
      rc=0
      wait_apiserver "$name" "$deadline" || rc=$?
      ((rc == 0)) && break
      ((rc == 2 && attempt < 3)) || exit 1
      read -r port < <(free_ports 1)
      log "kube-apiserver $name: port taken; retrying on $port"
      write_apiserver_cmd "$name" "$port"
      write_kubeconfig "$RUN/$name/kubeconfig" "$name" "$name:$port"
      launch "apiserver-$name" "$RUN/$name/apiserver.log" "$RUN/$name/apiserver.cmd"
    done
    log "kube-apiserver $name ready at https://127.0.0.1:$(<"$RUN/$name/port") ($((SECONDS - start_time))s)"
  done

  if [[ $WITH_KCM == 1 ]]; then
    read -ra port_list < <(free_ports "${#names[@]}")
    for i in "${!names[@]}"; do
      name=${names[$i]}
      write_kcm_cmd "$name" "${port_list[$i]}"
      launch "kcm-$name" "$RUN/$name/kcm.log" "$RUN/$name/kcm.cmd"
    done
    deadline=$((SECONDS + UP_TIMEOUT))
    for name in "${names[@]}"; do
      for attempt in 1 2 3; do
        rc=0
        wait_kcm "$name" "$deadline" || rc=$?
        ((rc == 0)) && break
        ((rc == 2 && attempt < 3)) || exit 1
        read -r port < <(free_ports 1)
        log "kube-controller-manager $name: port taken; retrying on $port"
        write_kcm_cmd "$name" "$port"
        launch "kcm-$name" "$RUN/$name/kcm.log" "$RUN/$name/kcm.cmd"
      done
      log "kube-controller-manager $name ready ($((SECONDS - start_time))s)"
    done
  fi

  for name in "${NODE_CLUSTERS[@]}"; do node_up "$name"; done

  ports=()
  for name in "${names[@]}"; do ports+=("$name:$(<"$RUN/$name/port")"); done
  write_kubeconfig "$RUN/kubeconfig" host "${ports[@]}"
  {
    printf 'KF_RUN_DIR=%s\nKUBECONFIG=%s\nKF_KUBECONFIG=%s\n' "$RUN" "$RUN/kubeconfig" "$RUN/kubeconfig"
    printf 'KF_CA_FILE=%s\n' "$RUN/pki/ca.crt"
    printf 'KF_ADMIN_CERT_FILE=%s\nKF_ADMIN_KEY_FILE=%s\n' "$RUN/pki/admin.crt" "$RUN/pki/admin.key"
    printf 'KF_ETCD_ENDPOINT=%s\n' "$ETCD_URL"
    printf 'KF_CLUSTERS=%s\n' "$(
      IFS=,
      printf '%s' "${names[*]}"
    )"
    printf 'KF_MEMBER_COUNT=%s\nKF_WITH_KCM=%s\n' "$n" "$WITH_KCM"
    printf 'KF_KUBECTL=%s\nKF_BIN_DIR=%s\n' "$KUBECTL" "$BIN_DIR"
    printf 'KF_WITH_NODE=%s\n' "$WITH_NODE"
    if [[ $WITH_NODE == 1 ]]; then
      printf 'KF_NETNS=%s\nKF_NODE_IP=%s\nKF_NODE_CLUSTERS=%s\n' "$(<"$RUN/netns")" "$NODE_IP" \
        "$(
          IFS=,
          printf '%s' "${NODE_CLUSTERS[*]}"
        )"
      for name in "${NODE_CLUSTERS[@]}"; do
        printf 'KF_%s_NODE=%s\nKF_%s_CONTAINERD_SOCKET=%s\n' "$(upper "$name")" \
          "$NODE_NAME_PREFIX$name" "$(upper "$name")" "$(node_dir "$name")/containerd.sock"
      done
    fi
    for name in "${names[@]}"; do
      local key
      key=$(upper "$name")
      printf 'KF_%s_SERVER=https://127.0.0.1:%s\n' "$key" "$(<"$RUN/$name/port")"
      printf 'KF_%s_PORT=%s\n' "$key" "$(<"$RUN/$name/port")"
      printf 'KF_%s_TOKEN=%s\n' "$key" "$(<"$RUN/$name/admin.token")"
      printf 'KF_%s_USER_TOKEN=%s\n' "$key" "$(<"$RUN/$name/user.token")"
      printf 'KF_%s_KUBECONFIG=%s\n' "$key" "$RUN/$name/kubeconfig"
    done
  } >"$RUN/env.tmp"
  chmod 600 "$RUN/env.tmp"
  mv "$RUN/env.tmp" "$RUN/env"
  trap - EXIT INT TERM HUP
  log "up in $((SECONDS - start_time))s; env file $RUN/env"
  printf '%s\n' "$RUN/kubeconfig"
}

cmd_down() {
  if [[ ! -e $RUN ]]; then
    log "nothing to stop ($RUN does not exist)"
    return 0
  fi
  [[ -e $RUN/$MARKER || -f $RUN/pids || -z $(ls -A "$RUN") ]] ||
    die "$RUN is not a local-clusters run directory; refusing to remove it"
  stop_recorded
  [[ ! -f $RUN/netns ]] || node_cleanup
  rm -rf "$RUN"
  log "down: stopped recorded processes and removed $RUN"
}

check_cluster() { # check_cluster NAME
  load_env
  [[ ,$KF_CLUSTERS, == *",$1,"* ]] || die "unknown cluster '$1' (clusters: $KF_CLUSTERS)"
}

cmd_stop() {
  local name=${1:-} pid
  [[ -n $name ]] || die "usage: $0 stop CLUSTER"
  check_cluster "$name"
  pid=$(pid_of "apiserver-$name")
  if alive "$pid"; then
    terminate "$pid"
    log "stopped kube-apiserver $name (pid $pid)"
  else
    log "kube-apiserver $name was not running"
  fi
  forget "apiserver-$name"
}

cmd_start() {
  local name=${1:-} rc=0 port
  [[ -n $name ]] || die "usage: $0 start CLUSTER"
  check_cluster "$name"
  resolve_kubectl
  if alive "$(pid_of "apiserver-$name")"; then
    log "kube-apiserver $name is already running"
  else
    port=$(<"$RUN/$name/port")
    # SO_REUSEADDR like Go's listener: connections in TIME_WAIT do not block the port
    in_net python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' \
      "$port" 2>/dev/null || die "port $port of $name is taken by another process"
    launch "apiserver-$name" "$RUN/$name/apiserver.log" "$RUN/$name/apiserver.cmd"
  fi
  wait_apiserver "$name" $((SECONDS + UP_TIMEOUT)) || rc=$?
  ((rc == 0)) || die "kube-apiserver $name did not become ready"
  log "kube-apiserver $name ready at $(awk -F= -v k="KF_$(upper "$name")_SERVER" '$1 == k {print $2}' "$RUN/env")"
  restart_kcm "$name"
}

# While its API server was down, kube-controller-manager's informers backed off (up to 30 s
# between tries), so its token controller may fill a join's ServiceAccount token only that late.
# A fresh one lists at once; it runs without leader election, so nothing waits for a lease.
restart_kcm() { # restart_kcm NAME
  local name=$1 pid rc=0
  pid=$(pid_of "kcm-$name")
  [[ -f $RUN/$name/kcm.cmd ]] && alive "$pid" || return 0
  terminate "$pid"
  forget "kcm-$name"
  launch "kcm-$name" "$RUN/$name/kcm.log" "$RUN/$name/kcm.cmd"
  wait_kcm "$name" $((SECONDS + UP_TIMEOUT)) || rc=$?
  ((rc == 0)) || die "kube-controller-manager $name did not become ready again"
  log "kube-controller-manager $name restarted"
}

cmd_compact() {
  local rev out
  load_env
  resolve_etcdctl
  rev=$(ETCDCTL_API=3 in_net "$ETCDCTL" --endpoints="$KF_ETCD_ENDPOINT" endpoint status -w json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Status"]["header"]["revision"])')
  if ! out=$(ETCDCTL_API=3 in_net "$ETCDCTL" --endpoints="$KF_ETCD_ENDPOINT" compact "$rev" 2>&1); then
    # compacting to an already compacted revision is not an error for our purpose
    grep -q 'required revision has been compacted' <<<"$out" || die "compact failed: $out"
  fi
  log "etcd compacted to revision $rev"
  printf '%s\n' "$rev"
}

cmd_status() {
  local role pid state port name
  if [[ ! -d $RUN ]]; then
    printf 'down (%s does not exist)\n' "$RUN"
    return 0
  fi
  printf 'run directory: %s\n' "$RUN"
  [[ -f $RUN/env ]] && printf 'kubeconfig:    %s\nenv file:      %s\n' "$RUN/kubeconfig" "$RUN/env"
  [[ -f $RUN/pids ]] || {
    printf 'no processes recorded\n'
    return 0
  }
  while read -r role pid; do
    if alive "$pid"; then state=running; else state=dead; fi
    case $role in
      etcd) port=$(sed -n 's|^--listen-client-urls=||p' "$RUN/etcd/etcd.cmd") ;;
      apiserver-*)
        name=${role#apiserver-}
        port=https://127.0.0.1:$(<"$RUN/$name/port")
        if [[ $state == running ]] && in_net curl -fsS -o /dev/null --max-time 2 --cacert "$RUN/pki/ca.crt" \
          "$port/readyz" 2>/dev/null; then state="running, ready"; fi
        ;;
      kcm-*) port=https://127.0.0.1:$(<"$RUN/${role#kcm-}/kcm-port") ;;
      containerd-*) port=unix://$(node_dir "${role#containerd-}")/containerd.sock ;;
      kubelet-* | kube-proxy-* | kube-scheduler-*) port="(node)" ;;
      *) port=unknown ;;
    esac
    printf '%-20s pid %-8s %-16s %s\n' "$role" "$pid" "$state" "$port"
  done <"$RUN/pids"
  if [[ -f $RUN/env ]]; then
    while read -r name; do
      [[ -n $(pid_of "apiserver-$name") ]] ||
        printf '%-20s %-12s %-16s https://127.0.0.1:%s\n' "apiserver-$name" "" stopped "$(<"$RUN/$name/port")"
    done < <(awk -F= '$1 == "KF_CLUSTERS" {gsub(",", "\n", $2); print $2}' "$RUN/env")
  fi
}

cmd_exec() {
  (($# > 0)) || die "usage: $0 exec CMD [ARG...]"
  load_env
  [[ $1 != kubectl ]] || set -- "$KF_KUBECTL" "${@:2}"
  in_net "$@"
}

cmd_load_image() {
  local archive name
  (($# > 0)) || die "usage: $0 load-image ARCHIVE..."
  load_env
  [[ ${KF_WITH_NODE:-0} == 1 ]] || die "$RUN has no node (KF_WITH_NODE=1 $0 up)"
  for archive in "$@"; do
    [[ -s $archive ]] || die "no OCI archive at '$archive'"
    for name in ${KF_NODE_CLUSTERS//,/ }; do
      node_load_image "$name" "$archive"
      log "imported $archive into the node of $name"
    done
  done
}

main() {
  local cmd=${1:-}
  shift || true
  case $cmd in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    reup)
      cmd_down
      cmd_up "$@"
      ;;
    stop) cmd_stop "$@" ;;
    start) cmd_start "$@" ;;
    compact) cmd_compact ;;
    status) cmd_status ;;
    env)
      [[ -f $RUN/env ]] || die "nothing is up in $RUN"
      printf '%s\n' "$RUN/env"
      ;;
    exec) cmd_exec "$@" ;;
    load-image) cmd_load_image "$@" ;;
    *)
      sed -n '2,/^set -euo/{/^#/p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
      [[ $cmd == -h || $cmd == --help || $cmd == help ]] || exit 2
      ;;
  esac
}

main "$@"

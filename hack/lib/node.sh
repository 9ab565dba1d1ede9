# A real node for the local clusters (KF_WITH_NODE=1 hack/local-clusters.sh up): containerd +
# runc, kubelet, kube-proxy (iptables), kube-scheduler and a bridge CNI network, so Deployments
# get Pods that run and Services route. Sourced by hack/local-clusters.sh, which provides RUN,
# REPO_ROOT, log, die, launch, alive, pid_of, terminate and in_net.
#
# Network rule: everything of a run with a node (etcd, the API servers, the controller managers,
# the host's node and its pods) lives in ONE network namespace that this script creates
# (`ip netns add kf-<hash of the run dir>`), with no link to the machine's own namespace: its
# loopback, which also holds the node address (NODE_IP, also the API servers' advertise address),
# a blackhole default route (so nothing can leave) and the pods' bridge (the Service network is
# routed there). Private addresses exist only in there (and in the member nodes' namespaces
# below); the machine's namespace sees none of it. Tools and tests reach the clusters by running
# inside it (`hack/local-clusters.sh exec CMD...`, or setns(2) to the path in KF_NETNS). No image
# is ever pulled: the namespace has no route out, the sandbox image is built here (images/pause)
# and imported, and every other image is imported the same way
# (`hack/local-clusters.sh load-image ARCHIVE`, which hack/build-image.sh calls).

# shellcheck source=hack/lib/oci.sh
. "$REPO_ROOT/hack/lib/oci.sh"

#
# Member nodes (KF_NODE_MEMBERS=N: member1..memberN get one each) live in a namespace of their own
# (kube-proxy owns its namespace's iptables), `kf-<hash>-<member>`, linked to the main one by a
# veth pair: 10.99.K.1 (main side) - 10.99.K.2 (the node's address), pods 10.244.K.0/24 routed
# through it; the node reaches its API server at NODE_IP through its default route.

NODE_IP=10.98.0.1            # the host node's (and the API servers') address, main namespace
NODE_SERVICE_CIDR=10.0.0.0/24  # the API servers' --service-cluster-ip-range
NODE_SERVICE_IP=10.0.0.1     # its first address: the `kubernetes` Service
NODE_NAME_PREFIX=kf-node-

node_hash() { printf '%s' "$RUN" | md5sum | cut -c1-10; }
node_netns_name() { printf 'kf-%s\n' "$(node_hash)"; }
node_dir() { printf '%s\n' "$RUN/$1/node"; }
node_cgroup_root() { printf '/kubefed-cpp-%s-%s\n' "$(node_hash)" "$1"; }
node_cni_network() { printf 'kubefed-cpp-%s-%s\n' "$(node_hash)" "$1"; }
# node_index CLUSTER: 0 for host, K for memberK
node_index() { [[ $1 == host ]] && echo 0 || echo "${1#member}"; }
node_address() { [[ $1 == host ]] && echo "$NODE_IP" || echo "10.99.$(node_index "$1").2"; }
node_pod_cidr() { echo "10.244.$(node_index "$1").0/24"; }
# node_netns CLUSTER: the namespace the cluster's node runs in
node_netns() {
  [[ $1 == host ]] && echo "/run/netns/$(node_netns_name)" || echo "/run/netns/$(node_netns_name)-$1"
}

node_resolve_tools() {
  local tool
  for tool in kubelet kube-proxy kube-scheduler; do
    [[ -x $BIN_DIR/$tool ]] || die "no $tool in $BIN_DIR (build the node set: hack/build-kube-binaries.sh node)"
  done
  for tool in containerd containerd-shim-runc-v2 runc ctr buildah nsenter iptables; do
    command -v "$tool" >/dev/null || die "$tool not found (hack/bootstrap.sh installs it)"
  done
  [[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/host-local && -x /usr/lib/cni/loopback ]] ||
    die "CNI plugins not found in /usr/lib/cni (apt-get install containernetworking-plugins)"
}

# node_netns_add NAME: `ip netns add`; a namespace of that name left by an earlier run of this run
# directory (ours, by its name) that could not clean up is removed first if nothing runs in it.
node_netns_add() {
  local ns=$1
  if ip netns list | awk '{print $1}' | grep -qx "$ns"; then
    [[ -z $(ip netns pids "$ns") ]] ||
      die "network namespace $ns exists and processes run in it; '$0 down' stops them"
    log "removing the stale network namespace $ns"
    ip netns del "$ns"
  fi
  ip netns add "$ns"
}

# node_netns_create: the namespace everything of this run lives in (see the top of this file).
node_netns_create() {
  local ns
  ns=$(node_netns_name)
  node_netns_add "$ns"
  printf '/run/netns/%s\n' "$ns" >"$RUN/netns"
  NET_PREFIX=(nsenter "--net=/run/netns/$ns" --)
  in_net ip link set lo up
  # the node address on the namespace's loopback (no dummy interfaces on every kernel); the
  # blackhole default route answers anything else with "unreachable" at once
  in_net ip addr add "$NODE_IP/32" dev lo
  in_net ip route add blackhole default
  # the host node's pod bridge exists from the start (the CNI bridge plugin adopts it), with a
  # route for the Service network: a connection to a ClusterIP (the API server calling a webhook
  # Service) needs a route before kube-proxy's OUTPUT rules rewrite it to a pod address
  in_net ip link add kf-cni0 type bridge
  in_net ip addr add "$(node_pod_cidr host | cut -d. -f1-3).1/24" dev kf-cni0
  in_net ip link set kf-cni0 up
  in_net ip route add "$NODE_SERVICE_CIDR" dev kf-cni0
  in_net sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 \
    net.bridge.bridge-nf-call-ip6tables=1
  log "network namespace $ns (API servers and the host's node at $NODE_IP)"
}

# node_member_netns_create MEMBER: the member node's namespace and its link to the main one.
node_member_netns_create() {
  local name=$1 k ns main
  k=$(node_index "$name")
  ns=$(node_netns_name)-$name
  main=$(node_netns_name)
  node_netns_add "$ns"
  ip -n "$main" link add "kf-$name" type veth peer name eth0 netns "$ns"
  ip -n "$main" addr add "10.99.$k.1/24" dev "kf-$name"
  ip -n "$main" link set "kf-$name" up
  ip -n "$main" route add "$(node_pod_cidr "$name")" via "$(node_address "$name")"
  ip -n "$ns" link set lo up
  ip -n "$ns" addr add "$(node_address "$name")/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" route add default via "10.99.$k.1"
  ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 \
    net.bridge.bridge-nf-call-ip6tables=1
  log "network namespace $ns (node address $(node_address "$name"), pods $(node_pod_cidr "$name"))"
}

node_write_containerd_config() { # node_write_containerd_config CLUSTER
  local n
  n=$(node_dir "$1")
  mkdir -p "$n/containerd/certs.d" "$n/cni/net.d" "$n/cni/ipam" "$n/runc"
  cat >"$n/containerd.toml" <<EOF
version = 2
root = "$n/containerd/root"
state = "$n/containerd/state"
[grpc]
  address = "$n/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$n/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$(oci_pause_image_name)"
  netns_mounts_under_state_dir = true
  disable_apparmor = true
  # lowering oom_score_adj needs CAP_SYS_RESOURCE, which root may lack in a sandbox: keep it at or
  # above containerd's own
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$n/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$n/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    # no registry configured: nothing is pulled (the namespace has no route out either)
    config_path = "$n/containerd/certs.d"
EOF
  cat >"$n/cni/net.d/10-kubefed-cpp.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "$(node_cni_network "$1")",
  "plugins": [
    {
      "type": "bridge", "bridge": "kf-cni0", "isGateway": true, "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local", "dataDir": "$n/cni/ipam",
        "ranges": [[{"subnet": "$(node_pod_cidr "$1")", "gateway": "$(node_pod_cidr "$1" | cut -d. -f1-3).1"}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    }
  ]
}
EOF
  printf '%s\n' containerd --config "$n/containerd.toml" >"$n/containerd.cmd"
}

node_write_kubelet_config() { # node_write_kubelet_config CLUSTER
  local name=$1 n
  n=$(node_dir "$name")
  mkdir -p "$n/kubelet" "$n/pod-logs"
  : >"$n/resolv.conf"
  cat >"$n/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
containerRuntimeEndpoint: unix://$n/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: $(node_cgroup_root "$name")
podLogsDir: $n/pod-logs
resolvConf: $n/resolv.conf
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $RUN/pki/ca.crt}
authorization: {mode: Webhook}
failSwapOn: false
# the node lives on tmpfs: no image garbage collection (it would delete imported images that no
# registry can give back) and no disk-pressure evictions
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi", nodefs.available: "0%", imagefs.available: "0%"}
serializeImagePulls: false
shutdownGracePeriod: 0s
EOF
  printf '%s\n' "$BIN_DIR/kubelet" --config="$n/kubelet.yaml" --kubeconfig="$RUN/$name/kubeconfig" \
    --root-dir="$n/kubelet" --cert-dir="$n/kubelet/pki" --hostname-override="$NODE_NAME_PREFIX$name" \
    --node-ip="$(node_address "$name")" --v=1 >"$n/kubelet.cmd"
}

node_write_proxy_and_scheduler() { # node_write_proxy_and_scheduler CLUSTER
  local name=$1 n
  n=$(node_dir "$name")
  cat >"$n/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection: {kubeconfig: $RUN/$name/kubeconfig}
hostnameOverride: $NODE_NAME_PREFIX$name
clusterCIDR: $(node_pod_cidr "$name")
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
conntrack: {maxPerCore: 0, min: 0}
EOF
  printf '%s\n' "$BIN_DIR/kube-proxy" --config="$n/kube-proxy.yaml" --v=1 >"$n/kube-proxy.cmd"
  printf '%s\n' "$BIN_DIR/kube-scheduler" --kubeconfig="$RUN/$name/kubeconfig" \
    --authentication-kubeconfig="$RUN/$name/kubeconfig" \
    --authorization-kubeconfig="$RUN/$name/kubeconfig" \
    --leader-elect=false --bind-address=127.0.0.1 --secure-port=10259 --v=1 >"$n/kube-scheduler.cmd"
}

# node_cgroups_create CLUSTER: kubelet wants its --cgroup-root to exist in every controller.
node_cgroups_create() {
  local controller root
  root=$(node_cgroup_root "$1")
  for controller in /sys/fs/cgroup/*/; do
    [[ -L ${controller%/} ]] || mkdir -p "$controller${root#/}"
  done
}

# node_ctr CLUSTER ARGS...: ctr against the node's containerd, Kubernetes' namespace.
node_ctr() {
  local n
  n=$(node_dir "$1")
  shift
  ctr --address "$n/containerd.sock" --namespace k8s.io "$@"
}

# node_load_image CLUSTER ARCHIVE: imports an OCI archive into the node's containerd.
node_load_image() {
  node_ctr "$1" images import --all-platforms "$2" >/dev/null
}

node_wait_containerd() { # node_wait_containerd CLUSTER DEADLINE
  local name=$1 deadline=$2 n
  n=$(node_dir "$name")
  until node_ctr "$name" version >/dev/null 2>&1; do
    alive "$(pid_of "containerd-$name")" || {
      log_tail "$n/containerd.log" "containerd $name (exited)"
      return 1
    }
    ((SECONDS < deadline)) || {
      log_tail "$n/containerd.log" "containerd $name (no answer within deadline)"
      return 1
    }
    sleep 0.2
  done
}

node_wait_ready() { # node_wait_ready CLUSTER DEADLINE
  local name=$1 deadline=$2 n status
  n=$(node_dir "$name")
  while :; do
    status=$(in_net "$KUBECTL" --kubeconfig "$RUN/$name/kubeconfig" --request-timeout=5s get node \
      "$NODE_NAME_PREFIX$name" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' \
      2>/dev/null || true)
    [[ $status == True ]] && return 0
    local role
    for role in containerd kubelet kube-proxy kube-scheduler; do
      alive "$(pid_of "$role-$name")" || {
        log_tail "$n/$role.log" "$role $name (exited)"
        return 1
      }
    done
    ((SECONDS < deadline)) || {
      log_tail "$n/kubelet.log" "node $NODE_NAME_PREFIX$name (not Ready within deadline)"
      return 1
    }
    sleep 0.5
  done
}

# node_up CLUSTER: starts the node of a cluster (its API server and controller manager run) and
# waits until it is Ready.
node_up() {
  local name=$1 n pause deadline=$((SECONDS + UP_TIMEOUT)) role archive
  n=$(node_dir "$name")
  pause=$(oci_pause_archive "$REPO_ROOT" "${KUBEFED_CPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubefed-cpp}/images")
  node_write_containerd_config "$name"
  node_write_kubelet_config "$name"
  node_write_proxy_and_scheduler "$name"
  node_cgroups_create "$name"
  # the node's processes run in the node's namespace (the host's: the main one)
  local NET_PREFIX=(nsenter "--net=$(node_netns "$name")" --)
  [[ $name == host ]] || node_member_netns_create "$name"
  launch "containerd-$name" "$n/containerd.log" "$n/containerd.cmd"
  node_wait_containerd "$name" "$deadline"
  node_load_image "$name" "$pause"
  for archive in ${KF_NODE_IMAGES:-}; do
    node_load_image "$name" "$archive"
    log "node $name: imported $archive"
  done
  for role in kube-scheduler kube-proxy kubelet; do
    launch "$role-$name" "$n/$role.log" "$n/$role.cmd"
  done
  node_wait_ready "$name" "$deadline"
  log "node $NODE_NAME_PREFIX$name Ready"
}

# node_kill_pods: kills what runs in the nodes' pods (every process in their cgroups), then the
# containerd shims of this run (their command line names our containerd's socket).
node_kill_pods() {
  local procs pid cmdline root
  for root in /sys/fs/cgroup/pids/kubefed-cpp-"$(node_hash)"-*; do
    [[ -d $root ]] || continue
    while read -r procs; do
      while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$procs"
    done < <(find "$root" -name cgroup.procs)
  done
  for cmdline in /proc/[0-9]*/cmdline; do
    pid=${cmdline#/proc/}
    pid=${pid%/cmdline}
    { tr '\0' ' ' <"$cmdline"; } 2>/dev/null | grep -q "containerd-shim.*-address $RUN/" &&
      kill -KILL "$pid" 2>/dev/null || true
  done
}

# node_cleanup: after every process is stopped: unmounts what the node mounted under the run
# directory (pod volumes, container root filesystems, pod network namespaces), removes the
# network namespace (and with it every interface of the run), the cgroups and kubelet's log links.
node_cleanup() {
  local mount ns controller link sandbox
  # libcni caches results under the fixed /var/lib/cni, keyed by network and sandbox
  for sandbox in "$RUN"/*/node/containerd/root/io.containerd.grpc.v1.cri/sandboxes/*; do
    [[ -d $sandbox ]] && rm -f /var/lib/cni/results/*-"$(basename "$sandbox")"-*
  done
  while read -r mount; do
    umount -l "$mount" 2>/dev/null || true
  done < <(awk -v run="$RUN/" 'index($5, run) == 1 {print $5}' /proc/self/mountinfo | sort -r)
  while read -r ns; do
    ip netns del "$ns" || log "could not remove network namespace $ns"
  done < <(ip netns list | awk -v main="$(node_netns_name)" '$1 == main || index($1, main "-") == 1 {print $1}')
  for controller in /sys/fs/cgroup/*/kubefed-cpp-"$(node_hash)"-*; do
    [[ -d $controller ]] || continue
    find "$controller" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  # kubelet links container logs into the fixed /var/log/containers; drop the links into our run
  for link in /var/log/containers/*; do
    [[ -L $link && $(readlink "$link") == "$RUN/"* ]] && rm -f "$link"
  done
  rm -f /var/lib/cni/results/kubefed-cpp-"$(node_hash)"-*
}

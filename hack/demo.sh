#!/usr/bin/env bash
# The main job, from a fresh machine: installs what is missing, builds the Kubernetes binaries
# (cached) and kubefed-cpp, brings up a host and two member clusters on 127.0.0.1 and shows how to
# reach them. Later milestones grow this into the full federation demo.
#
# Usage: hack/demo.sh        bring everything up (idempotent) and print how to use it
#        hack/demo.sh down   stop the demo clusters
set -euo pipefail
cd "$(dirname "$0")/.."
export KF_RUN_DIR=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-demo}

if [[ ${1:-up} == down ]]; then
  exec hack/local-clusters.sh down
fi

hack/bootstrap.sh
KUBE_BIN_DIR=$(hack/build-kube-binaries.sh)
# ccache (CMakePresets.json) keeps objects in ~/.cache/ccache; paths relative to the checkout let
# a fresh clone in another directory reuse them.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export PATH="$KUBE_BIN_DIR:$PATH"
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"

KUBECONFIG_PATH=$(hack/local-clusters.sh up 2 | tail -n 1)
set -a; . "$KF_RUN_DIR/env"; set +a

echo
echo "Local clusters are up (state in $KF_RUN_DIR):"
for context in ${KF_CLUSTERS//,/ }; do
  version=$("$KF_KUBECTL" --kubeconfig "$KUBECONFIG_PATH" --context "$context" version -o json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')
  server_var="KF_${context^^}_SERVER"
  printf '  %-8s %s  Kubernetes %s\n' "$context" "${!server_var}" "$version"
done
echo
echo "Reach them with:"
echo "  export KUBECONFIG=$KUBECONFIG_PATH"
echo "  $KF_KUBECTL --context member1 get namespaces"
echo
echo "kubefed-cpp's informer, listing every ConfigMap of the host through the C++ client:"
build/release/bench/informer/informer_bench --kubeconfig "$KUBECONFIG_PATH" --context host sync
echo
echo "Stop the clusters with: hack/demo.sh down"
echo "$KUBECONFIG_PATH"

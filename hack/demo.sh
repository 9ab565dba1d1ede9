#!/usr/bin/env bash
# The main job, from a fresh machine: installs what is missing, builds the Kubernetes binaries
# (cached) and kubefed-cpp, brings up a host and two member clusters on 127.0.0.1, starts the
# controller manager, joins both members with `kubefedctl join`, enables namespaces, configmaps
# and deployments with `kubefedctl enable`, applies a federated workload
# (hack/demo/federated-workload.yaml), waits until it is propagated and prints what each member
# holds.
#
# With --helm it installs KubeFed the way users do instead: local clusters with a real node
# (KF_WITH_NODE=1), the image built here (hack/build-image.sh) and `helm install kubefed
# charts/kubefed`; the controller manager then runs as pods on the host's node.
#
# Usage: hack/demo.sh [--helm]        bring everything up (idempotent) and run the demo
#        hack/demo.sh [--helm] down   stop the controller manager and the clusters
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} == --helm ]]; then
  shift
  exec hack/demo/helm.sh "$@"
fi
export KF_RUN_DIR=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-demo}

if [[ ${1:-up} == down ]]; then
  exec hack/federation.sh down
fi

hack/bootstrap.sh
KUBE_BIN_DIR=$(hack/build-kube-binaries.sh)
# ccache (CMakePresets.json) keeps objects in ~/.cache/ccache; paths relative to the checkout let
# a fresh clone in another directory reuse them.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export PATH="$KUBE_BIN_DIR:$PATH"
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target controller-manager kubefedctl

echo "=== clusters, KubeFed CRDs, controller manager, kubefedctl join member1 member2, enable"
hack/federation.sh up build/release namespaces configmaps deployments.apps
set -a; . "$KF_RUN_DIR/env"; set +a
kubectl() { "$KF_KUBECTL" --kubeconfig "$KUBECONFIG" "$@"; }

kubectl --context host -n kube-federation-system get kubefedclusters
echo
source hack/demo/workload.sh
apply_and_show_workload
echo "Reach the clusters with: export KUBECONFIG=$KUBECONFIG (contexts host, member1, member2)"
echo "Controller manager log: $KF_RUN_DIR/controller-manager.log"
echo "Stop everything with:   hack/demo.sh down"

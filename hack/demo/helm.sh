#!/usr/bin/env bash
# hack/demo.sh --helm: the demo with KubeFed installed as users install it. Local clusters with a
# real node on the host (hack/local-clusters.sh, KF_WITH_NODE=1), the kubefed-cpp image built
# here and loaded into the node (hack/build-image.sh), `helm install kubefed charts/kubefed`, both
# members joined with `kubefedctl join`, then the same federated workload as the process demo.
# Everything runs inside the clusters' network namespace (`hack/local-clusters.sh exec`).
#
# Usage: hack/demo.sh --helm [down]
set -euo pipefail
cd "$(dirname "$0")/../.."
export KF_RUN_DIR=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-demo-helm}
NS=kube-federation-system

if [[ ${1:-up} == down ]]; then
  exec hack/local-clusters.sh down
fi

hack/bootstrap.sh
KUBE_BIN_DIR=$(hack/build-kube-binaries.sh all)
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export PATH="$KUBE_BIN_DIR:$PATH"
cmake --preset release >/dev/null
targets=(controller-manager kubefedctl)
[[ ! -d cmd/webhook ]] || targets+=(webhook)
cmake --build --preset release -j "$(nproc)" --target "${targets[@]}"

echo "=== clusters: host with a node, member1, member2"
KF_WITH_NODE=1 hack/local-clusters.sh up 2 >/dev/null
echo "=== the image"
hack/build-image.sh build/release >/dev/null
in_clusters() { hack/local-clusters.sh exec "$@"; }
kubectl() { in_clusters kubectl "$@"; }

echo "=== helm install kubefed charts/kubefed -n $NS"
if ! in_clusters "$KUBE_BIN_DIR/helm" status kubefed -n "$NS" >/dev/null 2>&1; then
  kubectl create namespace "$NS" >/dev/null 2>&1 || true
  kubectl label namespace "$NS" "name=$NS" --overwrite >/dev/null
  in_clusters "$KUBE_BIN_DIR/helm" install kubefed charts/kubefed -n "$NS"
fi
kubectl -n "$NS" rollout status deployment/kubefed-controller-manager --timeout=180s
kubectl -n "$NS" rollout status deployment/kubefed-admission-webhook --timeout=180s
# A Ready webhook pod may not be routed through its Service yet: join's KubeFedCluster would be
# refused. Wait until the API server gets the webhook's answer to a server-side dry run.
probe="{\"apiVersion\": \"core.kubefed.io/v1beta1\", \"kind\": \"KubeFedCluster\",
  \"metadata\": {\"name\": \"webhook-probe\", \"namespace\": \"$NS\"},
  \"spec\": {\"apiEndpoint\": \"\", \"secretRef\": {\"name\": \"none\"}}}"
# The denial makes kubectl exit 1: its output is kept and searched, never piped under pipefail.
webhook_answers() {
  local answer
  answer=$(kubectl create --dry-run=server -f - <<<"$probe" 2>&1) || true
  [[ $answer == *"denied the request"* ]]
}
deadline=$((SECONDS + 60))
until webhook_answers; do
  ((SECONDS < deadline)) || { echo "the API server cannot reach the webhook" >&2; exit 1; }
  sleep 1
done
kubectl -n "$NS" get pods -o wide

echo "=== kubefedctl join member1 member2"
for member in member1 member2; do
  kubectl -n "$NS" get kubefedcluster "$member" >/dev/null 2>&1 ||
    in_clusters build/release/cmd/kubefedctl/kubefedctl join "$member" --cluster-context "$member" \
      --host-cluster-context host --kubeconfig "$KF_RUN_DIR/kubeconfig"
done
kubectl -n "$NS" wait --for condition=Ready --timeout=120s kubefedcluster/member1 kubefedcluster/member2

source hack/demo/workload.sh
apply_and_show_workload
echo "Reach the clusters with: KF_RUN_DIR=$KF_RUN_DIR hack/local-clusters.sh exec kubectl --context host|member1|member2 ..."
echo "Stop everything with:   hack/demo.sh --helm down"

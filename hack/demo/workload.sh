# Sourced by both demos (process and --helm): applies hack/demo/federated-workload.yaml to the
# host, waits for its propagation, prints what each member holds and checks it against the
# workload's placement and overrides (the demo fails when a member holds something else, so that
# CI, which runs both demos, notices). Uses the caller's `kubectl` function (contexts host,
# member1, member2).
apply_and_show_workload() {
  echo "=== the federated workload (hack/demo/federated-workload.yaml)"
  kubectl --context host get namespace demo >/dev/null 2>&1 ||
    kubectl --context host create namespace demo
  kubectl --context host apply -f hack/demo/federated-workload.yaml
  local object
  for object in federatednamespace/demo federatedconfigmap/greeting federateddeployment/web; do
    kubectl --context host -n demo wait --for condition=Propagation --timeout=120s "$object"
  done
  echo
  local wrong=0
  check_member member1 "hello from the host" 1 || wrong=1
  check_member member2 "hello, member2" 3 || wrong=1
  echo
  return "$wrong"
}

# check_member MEMBER GREETING REPLICAS: prints what MEMBER holds; fails when it differs from the
# template with MEMBER's overrides.
check_member() {
  local member=$1 greeting managed replicas image
  echo "=== $member holds:"
  greeting=$(kubectl --context "$member" -n demo get configmap greeting -o jsonpath='{.data.greeting}')
  managed=$(kubectl --context "$member" -n demo get configmap greeting \
    -o jsonpath='{.metadata.labels.kubefed\.io/managed}')
  replicas=$(kubectl --context "$member" -n demo get deployment web -o jsonpath='{.spec.replicas}')
  image=$(kubectl --context "$member" -n demo get deployment web \
    -o jsonpath='{.spec.template.spec.containers[0].image}')
  echo "  configmap/greeting  data.greeting=$greeting  label kubefed.io/managed=$managed"
  echo "  deployment/web      spec.replicas=$replicas  image=$image"
  if [[ $greeting != "$2" || $managed != true || $replicas != "$3" ]]; then
    echo "=== $member should hold data.greeting=\"$2\" (managed) and spec.replicas=$3" >&2
    return 1
  fi
}

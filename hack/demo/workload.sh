# Sourced by both demos (process and --helm): applies hack/demo/federated-workload.yaml to the
# host, waits for its propagation and prints what each member holds. Uses the caller's `kubectl`
# function (contexts host, member1, member2).
apply_and_show_workload() {
  echo "=== the federated workload (hack/demo/federated-workload.yaml)"
  kubectl --context host get namespace demo >/dev/null 2>&1 ||
    kubectl --context host create namespace demo
  kubectl --context host apply -f hack/demo/federated-workload.yaml
  local object member
  for object in federatednamespace/demo federatedconfigmap/greeting federateddeployment/web; do
    kubectl --context host -n demo wait --for condition=Propagation --timeout=120s "$object"
  done
  echo
  for member in member1 member2; do
    echo "=== $member holds:"
    kubectl --context "$member" -n demo get configmap greeting \
      -o jsonpath='  configmap/greeting  data.greeting={.data.greeting}  labels={.metadata.labels}{"\n"}'
    kubectl --context "$member" -n demo get deployment web \
      -o jsonpath='  deployment/web       spec.replicas={.spec.replicas}  image={.spec.template.spec.containers[0].image}{"\n"}'
  done
  echo
}

#include "tests/node/workload.h"

#include <unistd.h>

#include <atomic>

#include "tests/node/control_plane.h"

namespace kf::node {

FederatedTestNamespace::FederatedTestNamespace(const std::string& prefix, bool federate) {
  static std::atomic<int> counter{0};
  name_ = prefix + "-" + std::to_string(getpid()) + "-" + std::to_string(++counter);
  kubectl("host", "create namespace " + name_);
  if (!federate) return;
  applyYaml("host",
            "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\nmetadata:\n  name: " +
                name_ + "\n  namespace: " + name_ +
                "\nspec:\n  placement:\n    clusters:\n    - name: member1\n    - name: member2\n");
}

FederatedTestNamespace::~FederatedTestNamespace() {
  kubectl("host", "delete namespace " + name_ + " --wait=false");
}

std::string federatedConfigMap(const std::string& ns, const std::string& name,
                               const std::string& member2_value) {
  return "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\nmetadata:\n  name: " +
         name + "\n  namespace: " + ns +
         "\nspec:\n  template:\n    data:\n      greeting: hello\n"
         "  placement:\n    clusters:\n    - name: member1\n    - name: member2\n"
         "  overrides:\n  - clusterName: member2\n    clusterOverrides:\n"
         "    - path: /data/greeting\n      value: " +
         member2_value + "\n";
}

std::string federatedDeployment(const std::string& ns, const std::string& name) {
  return "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\nmetadata:\n  name: " +
         name + "\n  namespace: " + ns +
         "\nspec:\n  template:\n    spec:\n      replicas: 1\n"
         "      selector: {matchLabels: {app: " +
         name +
         "}}\n"
         "      template:\n        metadata: {labels: {app: " +
         name +
         "}}\n"
         "        spec:\n          containers:\n          - name: pause\n"
         "            image: localhost/kubefed-cpp/pause:1.0\n            imagePullPolicy: Never\n"
         "  placement:\n    clusterSelector: {}\n"
         "  overrides:\n  - clusterName: member2\n    clusterOverrides:\n"
         "    - path: /spec/replicas\n      value: 3\n";
}

std::string memberGreeting(const std::string& member, const std::string& ns,
                           const std::string& name) {
  Json config_map = getObject(member, "configmaps", name, ns);
  return config_map.is_object() ? config_map.value("data", Json::object()).value("greeting", "")
                                : "";
}

int memberReplicas(const std::string& member, const std::string& ns, const std::string& name) {
  Json deployment = getObject(member, "deployments", name, ns);
  return deployment.is_object() ? deployment["spec"].value("replicas", -1) : -1;
}

}  // namespace kf::node

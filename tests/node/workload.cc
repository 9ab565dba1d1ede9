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

Json pauseDeployment(const std::string& ns, const std::string& name) {
  const Json labels = {{"app", name}};
  const Json pod = {{"metadata", {{"labels", labels}}},
                    {"spec",
                     {{"terminationGracePeriodSeconds", 0},
                      {"containers",
                       {{{"name", "pause"},
                         {"image", "localhost/kubefed-cpp/pause:1.0"},
                         {"imagePullPolicy", "Never"}}}}}}};
  return {
      {"apiVersion", "types.kubefed.io/v1beta1"},
      {"kind", "FederatedDeployment"},
      {"metadata", {{"name", name}, {"namespace", ns}}},
      {"spec",
       {{"template",
         {{"spec", {{"replicas", 1}, {"selector", {{"matchLabels", labels}}}, {"template", pod}}}}},
        {"placement", {{"clusters", {{{"name", "member1"}}, {{"name", "member2"}}}}}}}}};
}

std::string federatedDeployment(const std::string& ns, const std::string& name) {
  Json deployment = pauseDeployment(ns, name);
  deployment["spec"]["placement"] = {{"clusterSelector", Json::object()}};  // every cluster
  deployment["spec"]["overrides"] = {
      {{"clusterName", "member2"},
       {"clusterOverrides", {{{"path", "/spec/replicas"}, {"value", 3}}}}}};
  return deployment.dump();
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

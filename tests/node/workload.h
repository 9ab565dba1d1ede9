#pragma once
// Federated objects the node tests create, and checks of what the members then hold.

#include <string>

#include "apis/meta/object.h"

namespace kf::node {

// A host namespace for one test: created (with a FederatedNamespace placing it in both members
// when `federate`), removed by the destructor (best effort; the controller cleans the members).
class FederatedTestNamespace {
 public:
  FederatedTestNamespace(const std::string& prefix, bool federate);
  ~FederatedTestNamespace();
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

// A FederatedConfigMap `name` in `ns` placed in member1 and member2, data greeting=hello, with
// an override greeting=<member2 value> for member2.
std::string federatedConfigMap(const std::string& ns, const std::string& name,
                               const std::string& member2_value);
// A FederatedDeployment `name` in `ns` of the pause image (imported, never pulled), 1 replica,
// placed in member1 and member2; callers add to it (JSON is YAML to applyYaml).
Json pauseDeployment(const std::string& ns, const std::string& name);
// pauseDeployment placed by an empty clusterSelector (every cluster), 3 replicas in member2 (an
// override).
std::string federatedDeployment(const std::string& ns, const std::string& name);

// The ConfigMap's data.greeting in a member ("" when absent).
std::string memberGreeting(const std::string& member, const std::string& ns,
                           const std::string& name);
// The Deployment's spec.replicas in a member (-1 when absent).
int memberReplicas(const std::string& member, const std::string& ns, const std::string& name);

}  // namespace kf::node

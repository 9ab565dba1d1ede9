#include "federation/scheduling/candidates.h"

#include <algorithm>
#include <iterator>

#include "apis/meta/field_errors.h"
#include "apis/meta/label_selector.h"
#include "federation/scheduling/object_fields.h"

namespace kf::scheduling {

namespace {

ApiError placementError(std::string_view what, const Json& object, ApiError error) {
  error.message = "placement of " + std::string(what) + " " + meta::goQuote(objectKey(object)) +
                  ": " + error.message;
  return error;
}

// KubeFed's selector-only placement: the clusterSelector alone decides.
Result<std::set<std::string>> selectedBySelector(const Json& object, std::string_view what,
                                                 const std::vector<ReadyCluster>& ready) {
  auto placement = federated::readPlacement(object);
  if (!placement) return placementError(what, object, std::move(placement).error());
  const auto& selector = placement.value().cluster_selector;
  if (!selector) return std::set<std::string>();
  auto selected =
      meta::namesMatching(*selector, ready, meta::FieldPath("spec.placement.clusterSelector"));
  if (!selected) return placementError(what, object, std::move(selected).error());
  return std::move(selected).value();
}

}  // namespace

bool isSchedulableTargetKind(std::string_view target_kind) {
  return std::find(std::begin(kSchedulableTargetKinds), std::end(kSchedulableTargetKinds),
                   target_kind) != std::end(kSchedulableTargetKinds);
}

std::vector<std::string> readyClusterNames(const std::vector<ReadyCluster>& ready) {
  std::vector<std::string> names;
  for (const auto& cluster : ready) names.push_back(cluster.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Result<std::vector<std::string>> clustersSelectedForScheduling(
    const std::vector<ReadyCluster>& ready, const Json& federated_object,
    const Json* federated_namespace) {
  if (federated_namespace == nullptr) {
    return makeError(Reason::kNotFound,
                     "intersectWithClusterSelector needs the FederatedNamespace of namespace " +
                         meta::goQuote(metadataText(federated_object, "namespace")) +
                         ", and there is none");
  }
  KF_TRY(by_object, selectedBySelector(federated_object, "federated object", ready));
  KF_TRY(by_namespace, selectedBySelector(*federated_namespace, "FederatedNamespace", ready));
  std::vector<std::string> out;
  for (const auto& name : readyClusterNames(ready)) {
    if (by_object.count(name) > 0 && by_namespace.count(name) > 0) out.push_back(name);
  }
  return out;
}

}  // namespace kf::scheduling

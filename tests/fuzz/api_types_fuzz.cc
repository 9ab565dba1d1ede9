// libFuzzer target for the KubeFed API types: any bytes that parse as JSON are decoded as every
// API type, defaulted and validated; whatever decodes must encode stably, and nothing may crash
// or leak. Build and run: tests/fuzz/CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "apis/core/federated_service_status.h"
#include "apis/core/federated_type_config.h"
#include "apis/core/kubefed_cluster.h"
#include "apis/core/kubefed_config.h"
#include "apis/core/propagated_version.h"
#include "apis/core/validation.h"
#include "apis/federated/federated_resource.h"
#include "apis/scheduling/replica_scheduling_preference.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

// Decodes `json` as T. Encoding is stable: what a decoded value encodes to decodes and encodes to
// the same JSON again. (Not identity: like KubeFed's Go types, a missing required field comes
// back as its zero value; unit tests pin that unknown fields survive.)
template <class T>
void roundTrip(const Json& json, const char* type) {
  auto decoded = T::fromJson(json);
  if (!decoded) return;
  const Json encoded = decoded.value().toJson();
  auto again = T::fromJson(encoded);
  if (!again || again.value().toJson() != encoded) {
    std::fprintf(stderr, "%s does not encode stably\n", type);
    std::abort();
  }
}

void exercise(const Json& json) {
  roundTrip<core::FederatedTypeConfig>(json, "FederatedTypeConfig");
  roundTrip<core::KubeFedCluster>(json, "KubeFedCluster");
  roundTrip<core::KubeFedConfig>(json, "KubeFedConfig");
  roundTrip<core::PropagatedVersion>(json, "PropagatedVersion");
  roundTrip<core::FederatedServiceStatus>(json, "FederatedServiceStatus");
  roundTrip<scheduling::ReplicaSchedulingPreference>(json, "ReplicaSchedulingPreference");

  if (auto ftc = core::FederatedTypeConfig::fromJson(json)) {
    (void)core::validateFederatedTypeConfig(ftc.value(), false);
    (void)core::validateFederatedTypeConfig(ftc.value(), true);
    core::setFederatedTypeConfigDefaults(ftc.value());
  }
  if (auto cluster = core::KubeFedCluster::fromJson(json)) {
    (void)core::validateKubeFedCluster(cluster.value(), false);
    (void)core::validateKubeFedCluster(cluster.value(), true);
  }
  if (auto config = core::KubeFedConfig::fromJson(json)) {
    (void)core::validateKubeFedConfig(config.value(), nullptr);
    core::KubeFedConfig defaulted = config.value();
    core::setKubeFedConfigDefaults(defaulted);
    (void)core::validateKubeFedConfig(defaulted, &config.value());
    core::KubeFedConfig twice = defaulted;
    core::setKubeFedConfigDefaults(twice);
    check(twice.toJson() == defaulted.toJson(), "defaulting is idempotent");
  }
  (void)federated::readFederatedSpec(json);
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const kf::Json json = kf::Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (!json.is_discarded()) kf::exercise(json);
  return 0;
}

#include "status/type_resources.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace kf::status {

GroupVersionResource resourceOf(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

std::string lowerAscii(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

TypeResources typeResourcesOf(core::FederatedTypeConfig ftc, const ControlPlaneConfig& config) {
  core::setFederatedTypeConfigDefaults(ftc);
  TypeResources out;
  out.target = resourceOf(ftc.spec.target_type);
  out.federated = resourceOf(ftc.spec.federated_type);
  // FederatedNamespace lives in the namespace it describes, whatever its FTC says.
  out.federated.namespaced = core::federatedTypeNamespaced(ftc);
  out.member_namespace = ftc.spec.target_type.namespaced() ? config.target_namespace : "";
  out.federated_key =
      InformerKey{.cluster = "",
                  .resource = out.federated,
                  .namespace_name = out.federated.namespaced ? config.target_namespace : "",
                  .label_selector = "",
                  .field_selector = ""};
  out.ftc = std::move(ftc);
  return out;
}

}  // namespace kf::status

#include "federation/admission/kubefed_handlers.h"

#include "apis/core/validation.h"

namespace kf::admission {
namespace {

constexpr std::string_view kCoreGroup = "core.kubefed.io";

// The object of a request as T. Absent is an error (Go cannot unmarshal no bytes); null decodes
// as an empty object, as Go's json.Unmarshal leaves the zero value for it.
template <class T>
Result<T> decodeObject(const std::optional<Json>& raw, std::string_view field,
                       std::string_view kind) {
  const std::string where = "request." + std::string(field);
  if (!raw) {
    return makeError(Reason::kBadRequest,
                     "cannot decode the " + std::string(kind) + ": " + where + " is missing");
  }
  auto decoded = T::fromJson(raw->is_null() ? Json::object() : *raw);
  if (!decoded) {
    return makeError(Reason::kBadRequest, "cannot decode the " + std::string(kind) + " in " +
                                              where + ": " + decoded.error().message);
  }
  return decoded;
}

}  // namespace

bool isCreateOrUpdateOf(const AdmissionRequest& request, std::string_view resource) {
  const bool create_or_update = request.operation == "CREATE" || request.operation == "UPDATE";
  return create_or_update && request.resource_group == kCoreGroup && request.resource == resource;
}

AdmissionResponse validateFederatedTypeConfigRequest(const AdmissionRequest& request) {
  if (!isCreateOrUpdateOf(request, "federatedtypeconfigs")) return allowed();
  auto ftc =
      decodeObject<core::FederatedTypeConfig>(request.object, "object", "FederatedTypeConfig");
  if (!ftc) return badRequest(ftc.error().message);
  // KubeFed treats any subresource of an FTC as its status.
  return fromFieldErrors(
      core::validateFederatedTypeConfig(ftc.value(), !request.sub_resource.empty()));
}

AdmissionResponse validateKubeFedClusterRequest(const AdmissionRequest& request) {
  if (!isCreateOrUpdateOf(request, "kubefedclusters")) return allowed();
  auto cluster = decodeObject<core::KubeFedCluster>(request.object, "object", "KubeFedCluster");
  if (!cluster) return badRequest(cluster.error().message);
  return fromFieldErrors(
      core::validateKubeFedCluster(cluster.value(), request.sub_resource == "status"));
}

AdmissionResponse validateKubeFedConfigRequest(const AdmissionRequest& request) {
  if (!isCreateOrUpdateOf(request, "kubefedconfigs")) return allowed();
  auto config = decodeObject<core::KubeFedConfig>(request.object, "object", "KubeFedConfig");
  if (!config) return badRequest(config.error().message);
  std::optional<core::KubeFedConfig> old_config;
  if (request.operation == "UPDATE") {
    auto old = decodeObject<core::KubeFedConfig>(request.old_object, "oldObject", "KubeFedConfig");
    if (!old) return badRequest(old.error().message);
    old_config = std::move(old).value();
  }
  return fromFieldErrors(
      core::validateKubeFedConfig(config.value(), old_config ? &*old_config : nullptr));
}

AdmissionResponse defaultKubeFedConfigRequest(const AdmissionRequest& request) {
  if (!isCreateOrUpdateOf(request, "kubefedconfigs")) return allowed();
  auto config = decodeObject<core::KubeFedConfig>(request.object, "object", "KubeFedConfig");
  if (!config) return badRequest(config.error().message);
  core::KubeFedConfig defaulted = config.value();
  core::setKubeFedConfigDefaults(defaulted);
  if (defaulted.spec.toJson() == config.value().spec.toJson()) return allowed();
  core::useGoDurationText(defaulted.spec);
  return patched(
      Json::array({{{"op", "replace"}, {"path", "/spec"}, {"value", defaulted.spec.toJson()}}}));
}

}  // namespace kf::admission

#include "controllers/federatedtypeconfig/ftc_writer.h"

#include "federation/controller/finalizers.h"

namespace kf {

HostFtcWriter::HostFtcWriter(RestClient& host, const std::string& kubefed_namespace)
    : ftcs_(host, kFederatedTypeConfigResource, kubefed_namespace) {}

Result<Json> HostFtcWriter::patchFinalizers(const std::string& name,
                                            const std::vector<std::string>& finalizers) {
  return ftcs_.patch(name, PatchType::kMerge, finalizersMergePatch(finalizers));
}

Result<Json> HostFtcWriter::updateStatus(const Json& ftc) { return ftcs_.updateStatus(ftc); }

}  // namespace kf

#pragma once
// The two writes the FTC reconciler makes to the host cluster, behind an interface so the
// reconciler can be tested without an API server.

#include <memory>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"
#include "federation/client/resource_client.h"

namespace kf {

inline const GroupVersionResource kFederatedTypeConfigResource{"core.kubefed.io", "v1beta1",
                                                               "federatedtypeconfigs", true};

class FtcWriter {
 public:
  virtual ~FtcWriter() = default;
  // Sets metadata.finalizers of FTC `name` with a JSON merge patch (finalizersMergePatch).
  // Returns the patched FTC.
  virtual Result<Json> patchFinalizers(const std::string& name,
                                       const std::vector<std::string>& finalizers) = 0;
  // A full PUT of the status subresource; `ftc` carries the resourceVersion it was read at.
  // Returns the FTC as stored.
  virtual Result<Json> updateStatus(const Json& ftc) = 0;
};

// Writes FTCs in one namespace of the host cluster.
class HostFtcWriter final : public FtcWriter {
 public:
  HostFtcWriter(RestClient& host, const std::string& kubefed_namespace);

  Result<Json> patchFinalizers(const std::string& name,
                               const std::vector<std::string>& finalizers) override;
  Result<Json> updateStatus(const Json& ftc) override;

 private:
  ResourceClient ftcs_;
};

}  // namespace kf

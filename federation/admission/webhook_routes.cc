#include "federation/admission/webhook_routes.h"

#include "federation/admission/kubefed_handlers.h"
#include "federation/admission/webhook.h"
#include "federation/serving/kubefed_routes.h"

namespace kf::admission {
namespace {

serving::Handler admissionRoute(std::string_view path, AdmissionHandler handler) {
  return [path = std::string(path),
          handler = std::move(handler)](const serving::ServerRequest& request) {
    return serveAdmissionReview(path, request, handler);
  };
}

}  // namespace

serving::Routes kubefedWebhookRoutes() {
  const serving::Handler ready = serving::readyzHandler([] { return serving::Readiness::ok(); });
  return {
      {std::string(kValidateFederatedTypeConfigsPath),
       admissionRoute(kValidateFederatedTypeConfigsPath, validateFederatedTypeConfigRequest)},
      {std::string(kValidateKubeFedClusterPath),
       admissionRoute(kValidateKubeFedClusterPath, validateKubeFedClusterRequest)},
      {std::string(kValidateKubeFedConfigPath),
       admissionRoute(kValidateKubeFedConfigPath, validateKubeFedConfigRequest)},
      {std::string(kDefaultKubeFedConfigPath),
       admissionRoute(kDefaultKubeFedConfigPath, defaultKubeFedConfigRequest)},
      {"/readyz", ready},
      {"/readyz/", ready},
  };
}

}  // namespace kf::admission

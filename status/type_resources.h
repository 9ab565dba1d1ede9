#pragma once
// The resources and informer keys a status/ controller of one federated type uses, resolved once
// from its FederatedTypeConfig with the same rules as the sync controller, so that equal keys
// lease the same shared informers.

#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/client/list_options.h"
#include "federation/controller/control_plane_config.h"
#include "federation/informer/informer_manager.h"

namespace kf::status {

struct TypeResources {
  core::FederatedTypeConfig ftc;  // defaults applied
  GroupVersionResource target;
  GroupVersionResource federated;
  // Where the target type is watched in member clusters ("" = all namespaces).
  std::string member_namespace;
  // The federated type's informer on the host (the sync controller's key).
  InformerKey federated_key;
};

TypeResources typeResourcesOf(core::FederatedTypeConfig ftc, const ControlPlaneConfig& config);

GroupVersionResource resourceOf(const core::ApiResource& type);

// Lower-case ASCII, for worker names ("FederatedServiceStatus" -> "federatedservicestatus").
std::string lowerAscii(std::string text);

}  // namespace kf::status

#pragma once
// The resources and informer keys a status/ controller of one federated type uses, resolved once
// from its FederatedTypeConfig with the same rules as the sync controller, so that equal keys
// lease the same shared informers; and what both status controllers are built from.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apis/core/federated_type_config.h"
#include "federation/client/list_options.h"
#include "federation/controller/builder.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/informer_source.h"
#include "federation/controller/member_informers.h"
#include "federation/informer/informer_manager.h"
#include "status/status_deps.h"

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

// What both status controllers of a type watch and read: its federated objects on the host, and
// its managed objects in the ready member clusters, with the sync controller's keys (one
// list/watch per cluster for all three).
struct TypeSources {
  std::unique_ptr<InformerSource> federated;
  std::unique_ptr<MemberInformers> members;
};
// Fails when the federated objects' informer cannot be started.
Result<TypeSources> leaseTypeSources(const TypeResources& type, const StatusControllerDeps& deps);

// Each ready cluster with its cached copy of `key` (null when it has none), in the registry's
// order. Fails naming the cluster whose cache is missing (not leased yet).
using ClusterObjects = std::vector<std::pair<std::string, ObjectPtr>>;
Result<ClusterObjects> readyMemberObjects(const TypeResources& type, const MemberInformers& members,
                                          const ClusterRegistry& clusters, const std::string& key);

// A status controller's builder: named `name`, with the status workers and KubeFed's delays.
ControllerBuilder statusControllerBuilder(std::string name, const StatusControllerDeps& deps);

}  // namespace kf::status

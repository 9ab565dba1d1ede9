#pragma once
// How the FederatedTypeConfig reconciler builds the per-type controllers without knowing them:
// cmd/controller-manager wires a factory that builds the sync and status controllers. The FTC
// reconciler starts what it gets and keeps it (running_controllers.h) until it stops it.

#include "apis/core/federated_type_config.h"
#include "apis/meta/api_error.h"
#include "federation/controller/runnable.h"

namespace kf {

class TypeControllerFactory {
 public:
  virtual ~TypeControllerFactory() = default;
  // The sync (propagation) controller for the FTC, not started.
  virtual Result<RunnablePtr> syncController(const core::FederatedTypeConfig& ftc) = 0;
  // The status controller for the FTC, not started.
  virtual Result<RunnablePtr> statusController(const core::FederatedTypeConfig& ftc) = 0;
};

}  // namespace kf

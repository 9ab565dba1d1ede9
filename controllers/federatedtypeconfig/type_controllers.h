#pragma once
// How the FederatedTypeConfig reconciler starts the per-type controllers without knowing them:
// cmd/controller-manager wires a factory that builds the sync and status controllers.

#include <memory>

#include "apis/core/federated_type_config.h"
#include "apis/meta/api_error.h"

namespace kf {

// A running per-type controller. stop() stops it and joins every thread it started; the
// destructor calls stop().
class TypeController {
 public:
  virtual ~TypeController() = default;
  virtual void stop() = 0;
};

class TypeControllerFactory {
 public:
  virtual ~TypeControllerFactory() = default;
  // The sync (propagation) controller for the FTC, started.
  virtual Result<std::unique_ptr<TypeController>> startSync(
      const core::FederatedTypeConfig& ftc) = 0;
  // The status controller for the FTC, started.
  virtual Result<std::unique_ptr<TypeController>> startStatus(
      const core::FederatedTypeConfig& ftc) = 0;
};

}  // namespace kf

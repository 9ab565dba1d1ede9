#pragma once
// The legacy status controller of one federated type (spec §2.6.2): for every federated object,
// a status object (FederatedServiceStatus for `services`) listing each ready member cluster's
// copy of the target object's .status. The FTC controller starts it beside the sync controller
// for an FTC with statusCollection Enabled and a statusType while RawResourceStatusCollection
// is off, and stops it with it.
//
// Queued by: the federated object or its status object changing (at once); a managed member
// object changing (after retry_delay); a cluster becoming ready or unready (every object, after
// the cluster delays). Member informers are leased with the sync controller's keys, so both
// share one list/watch per cluster. Reconciles run on the controller runtime (worker name:
// lower-case status kind; metric label `statuscontroller`).

#include <memory>

#include "apis/core/federated_type_config.h"
#include "status/status_deps.h"

namespace kf::status {

class ServiceStatusController {
 public:
  // Leases the informers and starts the workers. Fails when the FTC has no status type or an
  // informer cannot be started.
  static Result<std::unique_ptr<ServiceStatusController>> start(
      const core::FederatedTypeConfig& ftc, StatusControllerDeps deps);
  // stop().
  ~ServiceStatusController();
  ServiceStatusController(const ServiceStatusController&) = delete;
  ServiceStatusController& operator=(const ServiceStatusController&) = delete;

  // Stops reconciling, joins the workers and releases every informer lease. Idempotent.
  void stop();

 private:
  struct Parts;
  explicit ServiceStatusController(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace kf::status

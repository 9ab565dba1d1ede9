#pragma once
// The legacy status controller of one federated type (spec §2.6.2): for every federated object,
// a status object (FederatedServiceStatus for `services`) listing each ready member cluster's
// copy of the target object's .status. The FTC controller starts it beside the sync controller
// for an FTC with statusCollection Enabled and a statusType while RawResourceStatusCollection
// is off, and stops it with it.
//
// Queued by: the federated object or its status object changing (at once); a managed member
// object changing (after retry_delay); a cluster becoming ready or unready (every object, after
// the cluster delays, then small_delay). Member informers are leased with the sync controller's
// keys, so both share one list/watch per cluster. Worker name: lower-case status kind; metric
// label `statuscontroller`.

#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/controller/controller.h"
#include "federation/controller/informer_source.h"
#include "federation/controller/member_informers.h"
#include "federation/controller/reconciler.h"
#include "status/service_status.h"
#include "status/status_deps.h"
#include "status/type_resources.h"

namespace kf::status {

// Writes one federated object's status object: created when missing, updated when the ready
// clusters' statuses changed, left alone otherwise. The sources must outlive it.
class ServiceStatusReconciler final : public Reconciler {
 public:
  ServiceStatusReconciler(TypeResources type, core::ApiResource status_type,
                          StatusControllerDeps deps, const InformerSource& federated,
                          const InformerSource& status_objects, const MemberInformers& members);

  ReconcileResult reconcile(const std::string& key) override;

 private:
  ReconcileResult write(const std::string& key, const StatusObjectPlan& plan,
                        const std::string& ns);

  const TypeResources type_;
  const core::ApiResource status_type_;
  const GroupVersionResource status_resource_;
  StatusControllerDeps deps_;
  const InformerSource& federated_;
  const InformerSource& status_objects_;
  const MemberInformers& members_;
};

// The status controller of the FTC's type, not started. Fails when the FTC has no status type or
// an informer cannot be started.
Result<ControllerPtr> serviceStatusController(const core::FederatedTypeConfig& ftc,
                                              StatusControllerDeps deps);

}  // namespace kf::status

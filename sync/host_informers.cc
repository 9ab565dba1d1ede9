#include "sync/host_informers.h"

#include <memory>
#include <utility>

#include "federation/controller/change_trigger.h"
#include "federation/informer/store.h"

namespace kf::sync {

namespace {

const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};

Result<InformerLease> leaseWithTrigger(InformerManager& informers, const InformerKey& key,
                                       ChangeTrigger::Trigger trigger) {
  Result<InformerLease> lease = informers.acquire(key);
  if (!lease) {
    ApiError error = lease.error();
    error.message = "starting the host informer " + describe(key) + ": " + error.message;
    return error;
  }
  lease.value().addEventHandler(std::make_shared<ChangeTrigger>(std::move(trigger)));
  return lease;
}

}  // namespace

Result<std::unique_ptr<HostInformers>> HostInformers::start(const HostInformersOptions& options,
                                                            InformerManager& informers,
                                                            KeyCallback enqueue) {
  std::unique_ptr<HostInformers> self(new HostInformers());
  self->enqueue_ = std::move(enqueue);
  HostInformers* raw = self.get();
  const std::string ns = options.federated.namespaced ? options.target_namespace : "";

  // Handlers are added before the other leases exist; they only call enqueue_, which is set.
  KF_TRY(federated,
         leaseWithTrigger(informers, {"", options.federated, ns, "", ""},
                          [raw](const Json& object) { raw->enqueue_(objectKey(object)); }));
  self->federated_ = std::move(federated);

  if (options.target_is_namespace) {
    KF_TRY(namespaces,
           leaseWithTrigger(informers, {"", kNamespaces, "", "", ""},
                            [raw](const Json& object) { raw->enqueue_(objectName(object)); }));
    self->namespaces_ = std::move(namespaces);
  }
  if (options.federated_namespace) {
    KF_TRY(federated_namespaces,
           leaseWithTrigger(
               informers, {"", *options.federated_namespace, ns, "", ""},
               [raw](const Json& object) { raw->enqueueNamespace(objectNamespace(object)); }));
    self->federated_namespaces_ = std::move(federated_namespaces);
  }
  return self;
}

HostInformers::~HostInformers() { stop(); }

void HostInformers::stop() {
  // The FederatedNamespace handler reads the federated informer: release it first.
  federated_namespaces_.release();
  namespaces_.release();
  federated_.release();
}

bool HostInformers::synced() const {
  for (const InformerLease* lease : {&federated_, &namespaces_, &federated_namespaces_}) {
    if (*lease && !(*lease)->hasSynced()) {
      return false;
    }
  }
  return static_cast<bool>(federated_);
}

ObjectPtr HostInformers::federatedObject(const std::string& key) const {
  return federated_ ? federated_->store().get(key) : nullptr;
}

ObjectPtr HostInformers::hostNamespace(const std::string& name) const {
  return namespaces_ ? namespaces_->store().get(name) : nullptr;
}

ObjectPtr HostInformers::federatedNamespace(const std::string& ns) const {
  return federated_namespaces_ ? federated_namespaces_->store().get(ns + "/" + ns) : nullptr;
}

std::vector<std::string> HostInformers::federatedKeys() const {
  return federated_ ? federated_->store().listKeys() : std::vector<std::string>{};
}

void HostInformers::enqueueNamespace(const std::string& ns) const {
  if (!federated_) {
    return;
  }
  auto keys = federated_->store().indexKeys(kNamespaceIndex, ns);
  if (!keys) {
    return;
  }
  for (const std::string& key : keys.value()) {
    enqueue_(key);
  }
}

}  // namespace kf::sync

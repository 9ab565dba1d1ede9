#include "sync/controller/host_informers.h"

#include <memory>
#include <utility>

#include "federation/controller/informer_source.h"
#include "federation/informer/store.h"

namespace kf::sync {

namespace {

const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};

Result<InformerLease> lease(InformerManager& informers, const InformerKey& key) {
  Result<InformerLease> lease = informers.acquire(key);
  if (!lease) {
    ApiError error = lease.error();
    error.message = "starting the host informer " + describe(key) + ": " + error.message;
    return error;
  }
  return lease;
}

}  // namespace

Result<std::unique_ptr<HostInformers>> HostInformers::start(const HostInformersOptions& options,
                                                            InformerManager& informers) {
  std::unique_ptr<HostInformers> self(new HostInformers());
  const std::string ns = options.federated.namespaced ? options.target_namespace : "";
  KF_TRY(federated, lease(informers, {"", options.federated, ns, "", ""}));
  self->federated_ = std::move(federated);
  if (options.target_is_namespace) {
    KF_TRY(namespaces, lease(informers, {"", kNamespaces, "", "", ""}));
    self->namespaces_ = std::move(namespaces);
  }
  if (options.federated_namespace) {
    KF_TRY(federated_namespaces, lease(informers, {"", *options.federated_namespace, ns, "", ""}));
    self->federated_namespaces_ = std::move(federated_namespaces);
  }
  return self;
}

namespace {

SourcePtr sourceOver(const InformerLease& lease) {
  if (!lease) return nullptr;
  return std::make_unique<InformerSource>(lease.informer());
}

}  // namespace

SourcePtr HostInformers::federatedSource() const { return sourceOver(federated_); }

SourcePtr HostInformers::namespacesSource() const { return sourceOver(namespaces_); }

SourcePtr HostInformers::federatedNamespacesSource() const {
  return sourceOver(federated_namespaces_);
}

HostInformers::~HostInformers() { stop(); }

void HostInformers::stop() {
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

MapFunc HostInformers::federatedKeysInNamespaceOf() const {
  return [this](const Json& federated_namespace) {
    return federatedKeysIn(objectNamespace(federated_namespace));
  };
}

std::vector<std::string> HostInformers::federatedKeysIn(const std::string& ns) const {
  auto keys = federated_->store().indexKeys(kNamespaceIndex, ns);
  return keys ? std::move(keys).value() : std::vector<std::string>{};
}

}  // namespace kf::sync

#pragma once
// The sync controller's informers on the host cluster (spec §2.5.1), leased from the host
// InformerManager so other controllers share them: the type's federated objects (in the target
// namespace), for a Namespace target the host's Namespaces, for a namespaced target the
// FederatedNamespaces. The controller watches them through sources over the leased informers
// (sync_controller.cc says which keys each queues); the reconciles read their caches.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "federation/controller/source.h"
#include "federation/informer/informer_manager.h"

namespace kf::sync {

struct HostInformersOptions {
  GroupVersionResource federated;  // Federated<Kind>
  std::string target_namespace;    // "" = all namespaces
  bool target_is_namespace = false;
  // Set for namespaced targets: the FederatedNamespace resource.
  std::optional<GroupVersionResource> federated_namespace;
};

class HostInformers {
 public:
  // Leases the informers; fails when one cannot be started.
  static Result<std::unique_ptr<HostInformers>> start(const HostInformersOptions& options,
                                                      InformerManager& informers);
  // stop().
  ~HostInformers();
  HostInformers(const HostInformers&) = delete;
  HostInformers& operator=(const HostInformers&) = delete;

  // Sources over the leased informers, which must stop before stop() is called; null for an
  // informer the type does not use.
  SourcePtr federatedSource() const;
  SourcePtr namespacesSource() const;
  SourcePtr federatedNamespacesSource() const;

  // Releases the leases. Idempotent.
  void stop();

  bool synced() const;

  // Cached objects; null when absent.
  ObjectPtr federatedObject(const std::string& key) const;
  ObjectPtr hostNamespace(const std::string& name) const;     // only for a Namespace target
  ObjectPtr federatedNamespace(const std::string& ns) const;  // `ns/ns`; for namespaced targets
  bool tracksFederatedNamespaces() const { return static_cast<bool>(federated_namespaces_); }
  // Keys of every cached federated object.
  std::vector<std::string> federatedKeys() const;
  // A FederatedNamespace to the keys of the cached federated objects in its namespace, whose
  // placement depends on it. Valid while this lives.
  MapFunc federatedKeysInNamespaceOf() const;

 private:
  HostInformers() = default;
  // Keys of the cached federated objects in namespace `ns`.
  std::vector<std::string> federatedKeysIn(const std::string& ns) const;

  InformerLease federated_;
  InformerLease namespaces_;
  InformerLease federated_namespaces_;
};

}  // namespace kf::sync

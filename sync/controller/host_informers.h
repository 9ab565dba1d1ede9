#pragma once
// The sync controller's informers on the host cluster (spec §2.5.1), leased from the host
// InformerManager so other controllers share them. The controller watches them (see
// watchAll): a change of
//   * a federated object of the type (in the target namespace) queues the object's key;
//   * for a Namespace target, a host Namespace queues the namespace name;
//   * for a namespaced target, a FederatedNamespace queues every federated object of that
//     namespace (their placement depends on it).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "federation/controller/controller.h"
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

  // Makes `controller` (not started yet) watch every informer with the rules above; it must stop
  // before stop() is called. An update of a federated object queues it when
  // `federated_update_filter` says so.
  void watchAll(Controller& controller, UpdateFilter federated_update_filter) const;

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

 private:
  HostInformers() = default;
  // Keys of the cached federated objects in namespace `ns`.
  std::vector<std::string> federatedKeysIn(const std::string& ns) const;

  InformerLease federated_;
  InformerLease namespaces_;
  InformerLease federated_namespaces_;
};

}  // namespace kf::sync

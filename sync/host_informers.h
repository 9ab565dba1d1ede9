#pragma once
// The sync controller's informers on the host cluster (spec §2.5.1), leased from the host
// InformerManager so other controllers share them:
//   * the federated type in the target namespace: a change queues the object's key now;
//   * for a Namespace target, host Namespaces: a change queues the namespace name now;
//   * for a namespaced target, FederatedNamespaces: a change queues every federated object of
//     that namespace now (their placement depends on it).

#include <functional>
#include <optional>
#include <string>
#include <vector>

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
  using KeyCallback = std::function<void(const std::string& key)>;

  // Leases the informers; fails when one cannot be started.
  static Result<std::unique_ptr<HostInformers>> start(const HostInformersOptions& options,
                                                      InformerManager& informers,
                                                      KeyCallback enqueue);
  // stop().
  ~HostInformers();
  HostInformers(const HostInformers&) = delete;
  HostInformers& operator=(const HostInformers&) = delete;

  // Removes the handlers and releases the leases. Idempotent.
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
  void enqueueNamespace(const std::string& ns) const;

  KeyCallback enqueue_;
  InformerLease federated_;
  InformerLease namespaces_;
  InformerLease federated_namespaces_;
};

}  // namespace kf::sync

#include "sync/plan/event_key.h"

namespace kf::sync {

bool isSystemNamespace(std::string_view name, std::string_view kubefed_namespace) {
  return name == "kube-system" || name == "kube-public" || name == "default" ||
         name == kubefed_namespace;
}

std::optional<ResolvedEventKey> resolveEventKey(std::string_view key, bool target_is_namespace,
                                                std::string_view kubefed_namespace) {
  const QualifiedName source = QualifiedName::fromKey(key);
  if (!target_is_namespace) return ResolvedEventKey{source, source, true};
  if (isSystemNamespace(source.name, kubefed_namespace)) return std::nullopt;
  if (source.ns.empty()) {
    // A Namespace event (host or member): the FederatedNamespace sits in the namespace itself.
    return ResolvedEventKey{source, QualifiedName{source.name, source.name}, true};
  }
  // A FederatedNamespace event: the target Namespace is cluster-scoped.
  return ResolvedEventKey{QualifiedName{"", source.name}, source, false};
}

bool isValidFederatedNamespaceName(const QualifiedName& federated_namespace) {
  return federated_namespace.name == federated_namespace.ns;
}

}  // namespace kf::sync

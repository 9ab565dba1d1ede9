#pragma once
// From the key of an informer event to the federated object to reconcile (spec §2.5.2).
// Keys are "namespace/name", or "name" for cluster-scoped objects.
//
// For the `namespaces` type the federated object FederatedNamespace X lives in namespace X,
// while its target, Namespace X, is cluster-scoped: an event "X" (host or member Namespace)
// and an event "X/X" (FederatedNamespace) both reconcile federated X/X with target X. System
// namespaces are never propagated.

#include <optional>
#include <string>
#include <string_view>

#include "apis/meta/qualified_name.h"

namespace kf::sync {

// kube-system, kube-public, default and the KubeFed system namespace.
bool isSystemNamespace(std::string_view name, std::string_view kubefed_namespace);

struct ResolvedEventKey {
  QualifiedName target;     // the member objects' name
  QualifiedName federated;  // the federated object's name
  // When the federated object no longer exists, member objects of this name may be orphans and
  // lose their managed label. False only for FederatedNamespace events.
  bool possible_orphan = true;
};

// nullopt when the event is to be ignored (a system namespace of the `namespaces` type).
std::optional<ResolvedEventKey> resolveEventKey(std::string_view key, bool target_is_namespace,
                                                std::string_view kubefed_namespace);

// A FederatedNamespace must be named like the namespace it sits in; others are ignored with a
// Warning event InvalidName and this message.
inline constexpr std::string_view kInvalidFederatedNamespaceNameMessage =
    "The name of a federated namespace must match the name of its containing namespace.";
bool isValidFederatedNamespaceName(const QualifiedName& federated_namespace);

}  // namespace kf::sync

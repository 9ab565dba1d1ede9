#pragma once
// The pure rules of `kubefedctl federate` (spec §3.5): the federated object made from a target
// object, the API types `--contents` federates, and what `-f` guesses from a document's kind.

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object.h"
#include "federation/client/discovery.h"

namespace kf::kubefedctl {

// A FederatedTypeConfig's two types, after KubeFed's in-memory defaults.
struct TypePair {
  std::string name;  // the FTC's name: "configmaps", "deployments.apps"
  GroupVersionResource target;
  std::string target_kind;
  GroupVersionResource federated;
  std::string federated_kind;
};

// The types of a FederatedTypeConfig object (installed or generated); kInvalid when it does not
// read as one.
Result<TypePair> typePairOf(const Json& type_config);

// `Federated<Kind>` for `target` (an object as the API returns it): same name; same namespace,
// or for a Namespace its own name; spec.template = the target without apiVersion, kind, status,
// controller-set fields (a Namespace's spec.finalizers, a ServiceAccount's secrets, a Service's
// clusterIP(s) and nodePorts) and every metadata field but labels; placement selecting every
// cluster. Annotations do not carry over: a warning saying so is added to *warnings.
Json federatedObjectFor(const TypePair& types, const Json& target,
                        std::vector<std::string>* warnings);

// "ns/name", or "name" without a namespace: how KubeFed prints a qualified name.
std::string qualifiedName(const std::string& ns, const std::string& name);

// apimachinery's UnsafeGuessKindToResource: the plural and singular a kind most likely has.
struct GuessedNames {
  std::string plural;
  std::string singular;
};
GuessedNames guessResourceNames(const std::string& kind);

// The API type `-f` assumes for a document: group and version from apiVersion, names guessed
// from kind, namespaced when the document has a namespace.
Result<ApiResourceInfo> guessedResourceOf(const Json& document);

// Orders API versions as Kubernetes does: GA over beta over alpha, then by number (v1 > v1beta2
// > v1beta1 > v1alpha1); versions of another shape come last, alphabetically. Returns <0, 0, >0.
int compareKubeVersions(const std::string& a, const std::string& b);

// Names a resource that --contents never federates: written by controllers or KubeFed itself.
extern const std::vector<std::string> kControllerCreatedTypes;

// The namespaced types `federate namespaces NAME --contents` federates, one per group-qualified
// name in its highest version, sorted by that name: not in group "extensions", not a federated
// type, not created by controllers, listable, and not named by `skip` (a name, singular, kind,
// short name or "plural.group" of the type, or a whole group's name).
std::vector<ApiResourceInfo> typesToFederate(const std::vector<ApiResourceInfo>& resources,
                                             const std::vector<std::string>& skip);

}  // namespace kf::kubefedctl

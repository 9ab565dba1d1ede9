#include "cmd/kubefedctl/federated_object.h"

#include <algorithm>
#include <map>
#include <regex>

#include "apis/core/federated_type_config.h"
#include "apis/meta/ascii.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/type_config.h"

namespace kf::kubefedctl {
namespace {

GroupVersionResource resourceOf(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

// Fields that controllers of the member clusters set; copying them would conflict there.
void removeControllerSetFields(const std::string& kind, Json& object) {
  if (kind == "Namespace" && object.contains("spec") && object["spec"].is_object()) {
    object["spec"].erase("finalizers");
  } else if (kind == "ServiceAccount") {
    object.erase("secrets");
  } else if (kind == "Service" && object.contains("spec") && object["spec"].is_object()) {
    Json& spec = object["spec"];
    if (spec.contains("ports") && spec["ports"].is_array()) {
      for (auto& port : spec["ports"]) {
        if (port.is_object()) port.erase("nodePort");
      }
    }
    spec.erase("clusterIP");
    spec.erase("clusterIPs");
  }
}

// The template keeps labels only: the rest of metadata is the system's or the controllers'.
Json templateOf(Json object) {
  object.erase("apiVersion");
  object.erase("kind");
  object.erase("status");
  Json labels = object.value("metadata", Json::object()).value("labels", Json::object());
  object.erase("metadata");
  if (labels.is_object() && !labels.empty()) object["metadata"] = {{"labels", labels}};
  return object;
}

// Go's %v of a map[string]interface{}: map[k1:v1 k2:v2], keys sorted.
std::string goMap(const Json& map) {
  std::string out = "map[";
  bool first = true;
  for (const auto& [key, value] : map.items()) {
    out += (first ? "" : " ") + key + ":" +
           (value.is_string() ? value.get<std::string>() : value.dump());
    first = false;
  }
  return out + "]";
}

struct KubeVersion {
  int major = 0;
  int stability = 0;  // 0 alpha, 1 beta, 2 GA
  int minor = 0;
};

std::optional<KubeVersion> parseKubeVersion(const std::string& text) {
  static const std::regex kPattern("^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$");
  std::smatch match;
  if (!std::regex_match(text, match, kPattern)) return std::nullopt;
  KubeVersion version;
  version.major = std::stoi(match[1].str());
  if (!match[2].matched) {
    version.stability = 2;
    return version;
  }
  version.stability = match[2].str() == "beta" ? 1 : 0;
  version.minor = std::stoi(match[3].str());
  return version;
}

bool isFederatedType(const ApiResourceInfo& resource) {
  return resource.kind.rfind("Federated", 0) == 0 && resource.group == kDefaultFederatedGroup;
}

bool namedByAny(const ApiResourceInfo& resource, const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
    return !name.empty() && nameMatchesResource(name, resource);
  });
}

}  // namespace

const std::vector<std::string> kControllerCreatedTypes = {
    "endpoints", "events", "events.events.k8s.io", "propagatedversions.core.kubefed.io"};

Result<TypePair> typePairOf(const Json& type_config) {
  KF_TRY(decoded, core::FederatedTypeConfig::fromJson(type_config));
  core::FederatedTypeConfig ftc = std::move(decoded);
  core::setFederatedTypeConfigDefaults(ftc);
  TypePair pair;
  pair.name = ftc.name();
  pair.target = resourceOf(ftc.spec.target_type);
  pair.target_kind = ftc.spec.target_type.kind;
  pair.federated = resourceOf(ftc.spec.federated_type);
  pair.federated_kind = ftc.spec.federated_type.kind;
  return pair;
}

std::string qualifiedName(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "/" + name;
}

Json federatedObjectFor(const TypePair& types, const Json& target,
                        std::vector<std::string>* warnings) {
  Json copy = target;
  removeControllerSetFields(types.target_kind, copy);
  const std::string name = objectName(copy);
  const std::string ns = types.target_kind == "Namespace" ? name : objectNamespace(copy);

  const Json annotations =
      copy.value("metadata", Json::object()).value("annotations", Json::object());
  if (warnings != nullptr && annotations.is_object() && !annotations.empty()) {
    warnings->push_back(
        "Annotations defined for " + types.target_kind + " \"" +
        qualifiedName(objectNamespace(copy), name) +
        "\" will not appear in the template of the federated resource: " + goMap(annotations));
  }

  Json metadata = {{"name", name}};
  if (types.federated.namespaced) metadata["namespace"] = ns;
  return {{"apiVersion", types.federated.apiVersion()},
          {"kind", types.federated_kind},
          {"metadata", metadata},
          {"spec",
           {{"template", templateOf(std::move(copy))},
            {"placement", {{"clusterSelector", {{"matchLabels", Json::object()}}}}}}}};
}

GuessedNames guessResourceNames(const std::string& kind) {
  if (kind.empty()) return {};
  const std::string singular = toLower(kind);
  // Already plural.
  if (singular.size() >= 9 && singular.compare(singular.size() - 9, 9, "endpoints") == 0) {
    return {singular, singular};
  }
  switch (singular.back()) {
    case 's':
      return {singular + "es", singular};
    case 'y':
      return {singular.substr(0, singular.size() - 1) + "ies", singular};
    default:
      return {singular + "s", singular};
  }
}

Result<ApiResourceInfo> guessedResourceOf(const Json& document) {
  const std::string kind = document.value("kind", "");
  const std::string api_version = document.value("apiVersion", "");
  if (kind.empty() || api_version.empty()) {
    return makeError(Reason::kInvalid, "Object 'Kind' and 'apiVersion' are required, got kind \"" +
                                           kind + "\" and apiVersion \"" + api_version + "\"");
  }
  ApiResourceInfo resource;
  const auto slash = api_version.find('/');
  resource.group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  resource.version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
  resource.kind = kind;
  const GuessedNames names = guessResourceNames(kind);
  resource.name = names.plural;
  resource.singular_name = names.singular;
  resource.namespaced = !objectNamespace(document).empty();
  return resource;
}

int compareKubeVersions(const std::string& a, const std::string& b) {
  const auto va = parseKubeVersion(a);
  const auto vb = parseKubeVersion(b);
  if (va && vb) {
    if (va->stability != vb->stability) return va->stability - vb->stability;
    if (va->major != vb->major) return va->major - vb->major;
    return va->minor - vb->minor;
  }
  if (va) return 1;
  if (vb) return -1;
  return b.compare(a);
}

std::vector<ApiResourceInfo> typesToFederate(const std::vector<ApiResourceInfo>& resources,
                                             const std::vector<std::string>& skip) {
  std::map<std::string, ApiResourceInfo> chosen;
  for (const auto& resource : resources) {
    const bool group_skipped = std::any_of(skip.begin(), skip.end(), [&](const std::string& name) {
      return !name.empty() && name == resource.group;
    });
    if (group_skipped) continue;
    // Its types are served by newer groups too; federating both would duplicate objects.
    if (resource.group == "extensions") continue;
    if (!resource.namespaced || isFederatedType(resource)) continue;
    if (namedByAny(resource, kControllerCreatedTypes) || namedByAny(resource, skip)) continue;
    // Types that cannot be listed (bindings, access reviews) hold no objects to federate.
    if (!resource.hasVerb("list")) continue;
    const std::string key = groupQualifiedName(resource.name, resource.group);
    auto previous = chosen.find(key);
    if (previous != chosen.end() &&
        compareKubeVersions(resource.version, previous->second.version) <= 0) {
      continue;
    }
    chosen[key] = resource;
  }
  std::vector<ApiResourceInfo> out;
  for (auto& [key, resource] : chosen) out.push_back(std::move(resource));
  return out;
}

}  // namespace kf::kubefedctl

#include "cmd/kubefedctl/join_host.h"

#include <algorithm>

#include "cmd/kubefedctl/join_names.h"

namespace kf::kubefedctl {
namespace {

constexpr const char* kInHost = "in the host cluster";

bool writtenForCluster(const Json& secret, const std::string& cluster_name) {
  return annotationOf(secret, kJoinedClusterAnnotation) == cluster_name;
}

// The Secret named by --secret-name, when there is one join may reuse.
Result<std::optional<Json>> namedSecret(ResourceClient& secrets, const HostSecretRequest& request) {
  auto existing = secrets.get(request.secret_name);
  if (!existing) {
    if (isNotFound(existing.error())) return std::optional<Json>();
    return withContext(existing.error(),
                       "reading secret " +
                           quotedKey(request.kubefed_namespace, request.secret_name) + " " +
                           kInHost);
  }
  if (request.error_on_existing && !writtenForCluster(existing.value(), request.cluster_name)) {
    return makeError(Reason::kAlreadyExists,
                     "secret " + quotedKey(request.kubefed_namespace, request.secret_name) +
                         " already exists in the host cluster and was not written by a join of "
                         "cluster \"" +
                         request.cluster_name +
                         "\"; choose another --secret-name, or pass --error-on-existing=false "
                         "to overwrite it");
  }
  return std::optional<Json>(existing.value());
}

Result<std::optional<Json>> reusableSecret(ResourceClient& secrets,
                                           const HostSecretRequest& request) {
  if (!request.secret_name.empty()) return namedSecret(secrets, request);
  KF_TRY(earlier, joinedClusterSecrets(secrets, request.cluster_name));
  if (earlier.empty()) return std::optional<Json>();
  return std::optional<Json>(earlier.front());
}

Result<std::string> refreshToken(ResourceClient& secrets, Json secret,
                                 const HostSecretRequest& request, std::ostream& out) {
  const Json data = {{"token", request.token_base64}};
  const std::string name = objectName(secret);
  if (secret.value("data", Json()) == data && writtenForCluster(secret, request.cluster_name)) {
    printAction(out, kSecretKind, name, "unchanged", kInHost);
    return name;
  }
  secret["data"] = data;
  secret["metadata"]["annotations"][kJoinedClusterAnnotation] = request.cluster_name;
  if (auto updated = secrets.update(secret); !updated) {
    return withContext(
        updated.error(),
        "updating secret " + quotedKey(request.kubefed_namespace, name) + " " + kInHost);
  }
  printAction(out, kSecretKind, name, "updated", kInHost);
  return name;
}

// A merge patch that makes the stored spec equal `desired`: fields it no longer has are nulled.
Json specPatch(const Json& stored_spec, const Json& desired_spec) {
  Json spec = desired_spec;
  if (stored_spec.is_object()) {
    for (const auto& [key, value] : stored_spec.items()) {
      if (!desired_spec.contains(key)) spec[key] = nullptr;
    }
  }
  return {{"spec", spec}};
}

}  // namespace

Result<JoinScope> readJoinScope(RestClient& host, const std::string& kubefed_namespace) {
  auto config = ResourceClient(host, kKubeFedConfigs, kubefed_namespace).get(kKubeFedConfigName);
  if (!config) {
    if (!isNotFound(config.error())) {
      return withContext(config.error(), "reading KubeFedConfig " +
                                             quotedKey(kubefed_namespace, kKubeFedConfigName) +
                                             " " + kInHost);
    }
    return makeError(Reason::kNotFound,
                     "A KubeFedConfig named \"kubefed\" was not found in namespace \"" +
                         kubefed_namespace +
                         "\". Is a KubeFed control plane running in this namespace?");
  }
  const std::string scope = config.value().value("spec", Json::object()).value("scope", "");
  // An empty scope is Cluster, as KubeFed's join treats every scope but Namespaced.
  if (scope == "Cluster" || scope.empty()) return JoinScope::kCluster;
  if (scope == "Namespaced") return JoinScope::kNamespaced;
  return makeError(Reason::kInvalid,
                   "KubeFedConfig " + quotedKey(kubefed_namespace, kKubeFedConfigName) +
                       " has spec.scope \"" + scope + "\"; expected \"Cluster\" or \"Namespaced\"");
}

Result<std::optional<Json>> findKubeFedCluster(RestClient& host,
                                               const std::string& kubefed_namespace,
                                               const std::string& cluster_name,
                                               bool error_on_existing) {
  auto found =
      ResourceClient(host, kKubeFedClusterKind.resource, kubefed_namespace).get(cluster_name);
  if (!found) {
    if (isNotFound(found.error())) return std::optional<Json>();
    return withContext(
        found.error(),
        "reading KubeFedCluster " + quotedKey(kubefed_namespace, cluster_name) + " " + kInHost);
  }
  if (error_on_existing) {
    return makeError(Reason::kAlreadyExists,
                     "cluster \"" + cluster_name + "\" is already joined: KubeFedCluster " +
                         quotedKey(kubefed_namespace, cluster_name) +
                         " exists in the host cluster. Unjoin it first, or pass "
                         "--error-on-existing=false to update it");
  }
  return std::optional<Json>(found.value());
}

Result<std::string> writeHostSecret(RestClient& host, const HostSecretRequest& request,
                                    std::ostream& out) {
  ResourceClient secrets(host, kSecretKind.resource, request.kubefed_namespace);
  KF_TRY(existing, reusableSecret(secrets, request));
  if (existing) return refreshToken(secrets, *existing, request, out);
  const Json desired = hostSecretObject(request.cluster_name, request.kubefed_namespace,
                                        request.secret_name, request.token_base64);
  auto created = secrets.create(desired);
  if (!created) {
    return withContext(created.error(), "creating the token secret of cluster \"" +
                                            request.cluster_name + "\" " + kInHost);
  }
  const std::string name = objectName(created.value());
  printAction(out, kSecretKind, name, "created", kInHost);
  return name;
}

Status writeKubeFedCluster(RestClient& host, const Json& desired,
                           const std::optional<Json>& existing, std::ostream& out) {
  const std::string name = objectName(desired);
  const std::string ns = objectNamespace(desired);
  ResourceClient clusters(host, kKubeFedClusterKind.resource, ns);
  if (existing) {
    const std::string patch = specPatch((*existing).value("spec", Json()), desired["spec"]).dump();
    if (auto patched = clusters.patch(name, PatchType::kMerge, patch); !patched) {
      return withContext(patched.error(),
                         "updating KubeFedCluster " + quotedKey(ns, name) + " " + kInHost);
    }
    printAction(out, kKubeFedClusterKind, name, "updated", kInHost);
    return boost::outcome_v2::success();
  }
  if (auto created = clusters.create(desired); !created) {
    return withContext(created.error(),
                       "creating KubeFedCluster " + quotedKey(ns, name) + " " + kInHost);
  }
  printAction(out, kKubeFedClusterKind, name, "created", kInHost);
  return boost::outcome_v2::success();
}

Result<std::vector<Json>> joinedClusterSecrets(ResourceClient& secrets,
                                               const std::string& cluster_name) {
  auto listed = secrets.listAll({});
  if (!listed) return withContext(listed.error(), "listing secrets in the host cluster");
  std::vector<Json> out;
  for (const auto& secret : listed.value().items) {
    if (writtenForCluster(secret, cluster_name)) out.push_back(secret);
  }
  std::sort(out.begin(), out.end(),
            [](const Json& a, const Json& b) { return objectName(a) < objectName(b); });
  return out;
}

}  // namespace kf::kubefedctl

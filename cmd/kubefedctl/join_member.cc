#include "cmd/kubefedctl/join_member.h"

#include "cmd/kubefedctl/join_names.h"
#include "federation/client/resource_client.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::kubefedctl {
namespace {

// After KubeFed's "... already exists": how to go on.
constexpr const char* kRerunHint =
    " (left by an earlier join: unjoin the cluster first, or pass --error-on-existing=false to "
    "complete or update that join)";

// Writes the joining cluster's objects one at a time, each reported on `out`; errors name the
// object and the cluster.
class MemberWriter {
 public:
  MemberWriter(RestClient& member, const MemberSetup& setup, std::ostream& out)
      : member_(member),
        setup_(setup),
        place_("in cluster \"" + setup.cluster_name + "\""),
        out_(out) {}

  Status ensureNamespace();
  Result<Json> ensureServiceAccount();
  Status ensureTokenSecret(const Json& service_account);
  Status applyRbac(const RbacObject& rbac);
  Result<ServiceAccountToken> waitForToken(Clock& clock);

 private:
  ResourceClient client(const ObjectKind& kind) {
    return ResourceClient(member_, kind.resource, setup_.kubefed_namespace);
  }
  std::string doing(const char* verb, const ObjectKind& kind, const Json& object) const {
    return std::string(verb) + " " + kind.display + " " +
           quotedKey(objectNamespace(object), objectName(object)) + " " + place_;
  }
  void print(const ObjectKind& kind, const std::string& name, const std::string& action) {
    printAction(out_, kind, name, action, place_);
  }
  Result<std::string> updateRole(ResourceClient& roles, Json existing, const Json& desired);
  Result<std::string> updateBinding(ResourceClient& bindings, Json existing, const Json& desired);

  RestClient& member_;
  const MemberSetup& setup_;
  std::string place_;
  std::ostream& out_;
};

Status MemberWriter::ensureNamespace() {
  const Json desired = namespaceObject(setup_.kubefed_namespace);
  ResourceClient namespaces = client(kNamespaceKind);
  auto existing = namespaces.get(setup_.kubefed_namespace);
  if (existing) {
    // Nothing can be created in a namespace being deleted, e.g. right after an unjoin.
    if (existing.value().value("metadata", Json::object()).contains("deletionTimestamp")) {
      return makeError(Reason::kConflict, "namespace \"" + setup_.kubefed_namespace + "\" " +
                                              place_ +
                                              " is being deleted; run join again once it is gone");
    }
    print(kNamespaceKind, setup_.kubefed_namespace, "unchanged");
    return boost::outcome_v2::success();
  }
  if (!isNotFound(existing.error())) {
    return withContext(existing.error(), doing("reading", kNamespaceKind, desired));
  }
  auto created = namespaces.create(desired);
  if (!created && !isAlreadyExists(created.error())) {
    return withContext(created.error(), doing("creating", kNamespaceKind, desired));
  }
  print(kNamespaceKind, setup_.kubefed_namespace, "created");
  return boost::outcome_v2::success();
}

Result<Json> MemberWriter::ensureServiceAccount() {
  const Json desired = serviceAccountObject(setup_.service_account, setup_.kubefed_namespace);
  ResourceClient accounts = client(kServiceAccountKind);
  auto existing = accounts.get(setup_.service_account);
  if (existing) {
    print(kServiceAccountKind, setup_.service_account, "unchanged");
    return existing;
  }
  if (!isNotFound(existing.error())) {
    return withContext(existing.error(), doing("reading", kServiceAccountKind, desired));
  }
  auto created = accounts.create(desired);
  if (!created) {
    return withContext(created.error(), doing("creating", kServiceAccountKind, desired));
  }
  print(kServiceAccountKind, setup_.service_account, "created");
  return created;
}

Status MemberWriter::ensureTokenSecret(const Json& service_account) {
  const Json desired = tokenSecretObject(setup_.service_account, setup_.kubefed_namespace);
  const std::string name = objectName(desired);
  ResourceClient secrets = client(kSecretKind);
  auto existing = secrets.get(name);
  if (!existing && !isNotFound(existing.error())) {
    return withContext(existing.error(), doing("reading", kSecretKind, desired));
  }
  std::string action = "created";
  if (existing) {
    const Json& secret = existing.value();
    if (secret.value("type", "") != kServiceAccountTokenType ||
        annotationOf(secret, kServiceAccountNameAnnotation) != setup_.service_account) {
      return makeError(Reason::kAlreadyExists,
                       "secret " + quotedKey(setup_.kubefed_namespace, name) + " " + place_ +
                           " exists but is not a token of service account \"" +
                           setup_.service_account + "\"; delete it and run join again");
    }
    const std::string uid = annotationOf(secret, kServiceAccountUidAnnotation);
    if (uid.empty() || uid == objectUid(service_account)) {
      print(kSecretKind, name, "unchanged");
      return boost::outcome_v2::success();
    }
    // The token of an earlier service account of this name: it no longer authenticates.
    auto removed = secrets.remove(name);
    if (!removed && !isNotFound(removed.error())) {
      return withContext(removed.error(), doing("deleting", kSecretKind, desired));
    }
    action = "recreated";
  }
  auto created = secrets.create(desired);
  if (!created) return withContext(created.error(), doing("creating", kSecretKind, desired));
  print(kSecretKind, name, action);
  return boost::outcome_v2::success();
}

Result<std::string> MemberWriter::updateRole(ResourceClient& roles, Json existing,
                                             const Json& desired) {
  if (existing.value("rules", Json::array()) == desired["rules"]) return std::string("unchanged");
  existing["rules"] = desired["rules"];
  KF_TRYV(roles.update(existing));
  return std::string("updated");
}

Result<std::string> MemberWriter::updateBinding(ResourceClient& bindings, Json existing,
                                                const Json& desired) {
  // A binding's roleRef cannot change: a different one means a new binding.
  if (existing.value("roleRef", Json()) != desired["roleRef"]) {
    auto removed = bindings.remove(objectName(desired));
    if (!removed && !isNotFound(removed.error())) return removed.error();
    KF_TRYV(bindings.create(desired));
    return std::string("recreated");
  }
  if (existing.value("subjects", Json()) == desired["subjects"]) return std::string("unchanged");
  existing["subjects"] = desired["subjects"];
  KF_TRYV(bindings.update(existing));
  return std::string("updated");
}

Status MemberWriter::applyRbac(const RbacObject& rbac) {
  const Json& desired = rbac.object;
  ResourceClient objects(member_, rbac.kind.resource, objectNamespace(desired));
  auto existing = objects.get(objectName(desired));
  if (!existing && !isNotFound(existing.error())) {
    return withContext(existing.error(), doing("reading", rbac.kind, desired));
  }
  if (existing && setup_.error_on_existing) {
    return makeError(Reason::kAlreadyExists, rbac.description + " for service account " +
                                                 setup_.service_account + " in joining cluster " +
                                                 setup_.cluster_name + " already exists" +
                                                 kRerunHint);
  }
  Result<std::string> action = std::string("created");
  if (!existing) {
    if (auto created = objects.create(desired); !created) action = created.error();
  } else if (desired.contains("roleRef")) {
    action = updateBinding(objects, existing.value(), desired);
  } else {
    action = updateRole(objects, existing.value(), desired);
  }
  if (!action) return withContext(action.error(), doing("writing", rbac.kind, desired));
  print(rbac.kind, objectName(desired), action.value());
  return boost::outcome_v2::success();
}

Result<ServiceAccountToken> MemberWriter::waitForToken(Clock& clock) {
  const std::string name = tokenSecretName(setup_.service_account);
  ResourceClient secrets = client(kSecretKind);
  const auto deadline = clock.now() + setup_.token_timeout;
  std::string last_state = "it has no token yet";
  while (true) {
    auto secret = secrets.get(name);
    if (secret) {
      if (auto token = tokenFrom(secret.value())) return *token;
    } else if (isNotFound(secret.error())) {
      last_state = "it does not exist (the token controller deletes tokens of unknown accounts)";
    } else {
      return withContext(
          secret.error(),
          "reading secret " + quotedKey(setup_.kubefed_namespace, name) + " " + place_);
    }
    if (clock.now() >= deadline) {
      return makeError(
          Reason::kTimeout,
          "timed out after " + std::to_string(setup_.token_timeout.count() / 1000) +
              "s waiting for a token in secret " + quotedKey(setup_.kubefed_namespace, name) + " " +
              place_ + ": " + last_state +
              ". Its token controller (part of kube-controller-manager) must be running");
    }
    sleepUnlessStopped(clock, std::stop_token{}, setup_.token_poll_interval);
  }
}

}  // namespace

Status checkServiceAccountAbsent(RestClient& member, const MemberSetup& setup) {
  auto existing = ResourceClient(member, kServiceAccountKind.resource, setup.kubefed_namespace)
                      .get(setup.service_account);
  if (!existing && isNotFound(existing.error())) return boost::outcome_v2::success();
  if (!existing) {
    return withContext(existing.error(),
                       "reading serviceaccount " +
                           quotedKey(setup.kubefed_namespace, setup.service_account) +
                           " in cluster \"" + setup.cluster_name + "\"");
  }
  return makeError(Reason::kAlreadyExists,
                   "service account: " + setup.service_account +
                       " already exists in joining cluster: " + setup.cluster_name + kRerunHint);
}

Result<ServiceAccountToken> setUpJoiningCluster(RestClient& member, const MemberSetup& setup,
                                                Clock& clock, std::ostream& out) {
  MemberWriter writer(member, setup, out);
  KF_TRYV(writer.ensureNamespace());
  KF_TRY(service_account, writer.ensureServiceAccount());
  KF_TRYV(writer.ensureTokenSecret(service_account));
  for (const auto& rbac :
       rbacObjects(setup.scope, setup.service_account, setup.kubefed_namespace)) {
    KF_TRYV(writer.applyRbac(rbac));
  }
  return writer.waitForToken(clock);
}

}  // namespace kf::kubefedctl

#include "cmd/kubefedctl/unjoin.h"

#include <set>

#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/join_host.h"
#include "cmd/kubefedctl/join_names.h"
#include "cmd/kubefedctl/join_options.h"
#include "federation/client/resource_client.h"

namespace kf::kubefedctl {
namespace {

const HelpText kUnjoinHelp{
    "unjoin CLUSTER_NAME --host-cluster-context=HOST_CONTEXT",
    "Remove the registration of a cluster from a KubeFed control plane",
    "Unjoin removes the registration of a Kubernetes cluster from a KubeFed control plane.\n"
    "Current context is assumed to be a Kubernetes cluster hosting a KubeFed control plane.\n"
    "Please use the --host-cluster-context flag otherwise.",
    "  # Remove the registration of a Kubernetes cluster from a KubeFed control plane by\n"
    "  # specifying the cluster name and the context name of the control plane's host cluster.\n"
    "  # Cluster name must be a valid RFC 1123 subdomain name. Cluster context must be specified\n"
    "  # if the cluster name is different than the cluster's context in the local kubeconfig.\n"
    "  kubefedctl unjoin foo --host-cluster-context=bar"};

constexpr const char* kInHost = "in the host cluster";

struct UnjoinCommandFlags {
  JoinFlags common;
  bool force = false;

  void addTo(FlagSet& flags) {
    common.addTo(flags);
    flags.addBool("force", 0, &force,
                  "Delete federated cluster and secret resources even if resources in the "
                  "cluster targeted for unjoin are not removed successfully.");
  }
};

// Deletes objects of one cluster and reports each; an object already gone is not an error. A dry
// run reads instead and reports what it would delete.
class Remover {
 public:
  Remover(RestClient& client, std::string place, bool dry_run, std::ostream& out)
      : client_(client), place_(std::move(place)), dry_run_(dry_run), out_(out) {}

  Status remove(const ObjectRef& ref) {
    ResourceClient objects(client_, ref.kind.resource, ref.ns);
    Status done = boost::outcome_v2::success();
    if (dry_run_) {
      if (auto found = objects.get(ref.name); !found) done = found.error();
    } else {
      done = objects.remove(ref.name);
    }
    if (!done) {
      if (isNotFound(done.error())) return boost::outcome_v2::success();
      return withContext(done.error(), "deleting " + ref.kind.display + " " +
                                           quotedKey(ref.ns, ref.name) + " " + place_);
    }
    printAction(out_, ref.kind, ref.name, dry_run_ ? "deleted (dry run)" : "deleted", place_);
    return boost::outcome_v2::success();
  }

  const std::string& place() const { return place_; }

 private:
  RestClient& client_;
  std::string place_;
  bool dry_run_;
  std::ostream& out_;
};

// With --force a failure is reported and unjoin goes on; without, it stops unjoin.
Status tolerate(Status status, bool force, std::ostream& err) {
  if (status || !force) return status;
  err << "Warning: " << status.error().message << " (continuing: --force)\n";
  return boost::outcome_v2::success();
}

// The member's KubeFed namespace, unless it is the host's own namespace: a host that joined
// itself shares it with the control plane.
Status removeKubefedNamespace(RestClient& host, RestClient& member, const UnjoinRequest& request,
                              Remover& remover, std::ostream& out) {
  const std::string& ns = request.kubefed_namespace;
  auto in_member = ResourceClient(member, kNamespaceKind.resource).get(ns);
  if (!in_member) {
    if (isNotFound(in_member.error())) return boost::outcome_v2::success();
    return withContext(in_member.error(), "reading namespace \"" + ns + "\" " + remover.place());
  }
  // Already being deleted, by an earlier unjoin: deleting again would report it twice.
  if (in_member.value().value("metadata", Json::object()).contains("deletionTimestamp")) {
    return boost::outcome_v2::success();
  }
  auto in_host = ResourceClient(host, kNamespaceKind.resource).get(ns);
  if (!in_host && !isNotFound(in_host.error())) {
    return withContext(in_host.error(), "reading namespace \"" + ns + "\" " + kInHost);
  }
  if (in_host && objectUid(in_host.value()) == objectUid(in_member.value())) {
    printAction(out, kNamespaceKind, ns, "kept",
                remover.place() + " (it is the host cluster's KubeFed namespace)");
    return boost::outcome_v2::success();
  }
  return remover.remove({kNamespaceKind, "", ns});
}

Status removeFromMember(RestClient& host, RestClient& member, const UnjoinRequest& request,
                        Streams streams) {
  Remover remover(member, "in cluster \"" + request.cluster_name + "\"", request.dry_run,
                  streams.out);
  const std::string account = serviceAccountName(request.cluster_name, request.host_cluster_name);
  for (const auto& ref : joinedMemberObjects(account, request.kubefed_namespace)) {
    KF_TRYV(tolerate(remover.remove(ref), request.force, streams.err));
  }
  return tolerate(removeKubefedNamespace(host, member, request, remover, streams.out),
                  request.force, streams.err);
}

// The Secret the KubeFedCluster names and any an unfinished join of this cluster left.
Result<std::set<std::string>> hostSecretsOf(RestClient& host, const std::optional<Json>& cluster,
                                            const UnjoinRequest& request) {
  std::set<std::string> names;
  if (cluster) {
    const std::string named = (*cluster)
                                  .value("spec", Json::object())
                                  .value("secretRef", Json::object())
                                  .value("name", "");
    if (!named.empty()) names.insert(named);
  }
  ResourceClient secrets(host, kSecretKind.resource, request.kubefed_namespace);
  KF_TRY(leftovers, joinedClusterSecrets(secrets, request.cluster_name));
  for (const auto& secret : leftovers) names.insert(objectName(secret));
  return names;
}

Status removeFromHost(RestClient& host, const UnjoinRequest& request, Streams streams) {
  const std::string& ns = request.kubefed_namespace;
  auto found = ResourceClient(host, kKubeFedClusterKind.resource, ns).get(request.cluster_name);
  if (!found && !isNotFound(found.error())) {
    return withContext(found.error(), "reading KubeFedCluster " +
                                          quotedKey(ns, request.cluster_name) + " " + kInHost);
  }
  std::optional<Json> cluster;
  if (found) {
    cluster = found.value();
  } else {
    streams.err << "Warning: KubeFedCluster " << quotedKey(ns, request.cluster_name)
                << " does not exist in the host cluster\n";
  }
  KF_TRY(secret_names, hostSecretsOf(host, cluster, request));
  Remover remover(host, kInHost, request.dry_run, streams.out);
  for (const auto& name : secret_names) {
    KF_TRYV(tolerate(remover.remove({kSecretKind, ns, name}), request.force, streams.err));
  }
  if (!cluster) return boost::outcome_v2::success();
  return remover.remove({kKubeFedClusterKind, ns, request.cluster_name});
}

}  // namespace

std::vector<ObjectRef> joinedMemberObjects(const std::string& service_account,
                                           const std::string& kubefed_namespace) {
  const std::string role = roleName(service_account);
  const std::string health = healthCheckRoleName(service_account, kubefed_namespace);
  return {{kClusterRoleBindingKind, "", role},
          {kClusterRoleKind, "", role},
          {kClusterRoleBindingKind, "", health},
          {kClusterRoleKind, "", health},
          {kRoleBindingKind, kubefed_namespace, role},
          {kRoleKind, kubefed_namespace, role},
          {kSecretKind, kubefed_namespace, tokenSecretName(service_account)},
          {kServiceAccountKind, kubefed_namespace, service_account}};
}

Status unjoinCluster(RestClient& host, RestClient* member, const UnjoinRequest& request,
                     Streams streams) {
  if (member != nullptr) {
    KF_TRYV(removeFromMember(host, *member, request, streams));
  }
  return removeFromHost(host, request, streams);
}

namespace {

class UnjoinCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override { options_.addTo(flags); }

  int run(const std::vector<std::string>& args, Streams streams) override {
    auto resolved = resolveJoin(options_.common, args);
    if (!resolved) return fail(resolved.error().message, streams);
    const JoinTarget& target = resolved.value().target;

    auto host = cliClient(resolved.value().kubeconfig, target.host_context);
    if (!host) return fail(host.error().message, streams);
    std::unique_ptr<RestClient> member;
    if (auto client = cliClient(resolved.value().kubeconfig, target.cluster_context); client) {
      member = std::move(client.value());
    } else if (options_.force) {
      streams.err << "Warning: " << client.error().message
                  << " (continuing without the unjoining cluster: --force)\n";
    } else {
      return fail(client.error().message, streams);
    }
    UnjoinRequest request{target.cluster_name, target.host_cluster_name,
                          options_.common.global.kubefed_namespace, options_.force,
                          options_.common.global.dry_run};
    if (auto done = unjoinCluster(*host.value(), member.get(), request, streams); !done) {
      return fail(done.error().message, streams);
    }
    return kExitOk;
  }

  // The clusters joined so far.
  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!args.empty()) return {};
    return {kubefedClusterNames(options_.common.global), false};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(options_.common.global, flag);
  }

 private:
  UnjoinCommandFlags options_;
};

}  // namespace

CommandSpec unjoinCommand() {
  return {"unjoin", kUnjoinHelp, [] { return std::make_unique<UnjoinCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

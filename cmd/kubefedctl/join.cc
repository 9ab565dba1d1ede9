#include "cmd/kubefedctl/join.h"

#include "apis/core/validation.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"
#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/join_host.h"
#include "cmd/kubefedctl/join_member.h"
#include "cmd/kubefedctl/join_names.h"
#include "cmd/kubefedctl/join_options.h"
#include "federation/crdgen/yaml_json.h"

namespace kf::kubefedctl {
namespace {

const HelpText kJoinHelp{
    "join CLUSTER_NAME --host-cluster-context=HOST_CONTEXT",
    "Register a cluster with a KubeFed control plane",
    "Join registers a Kubernetes cluster with a KubeFed control plane.\n\n"
    "Current context is assumed to be a Kubernetes cluster hosting a KubeFed control plane.\n"
    "Please use the --host-cluster-context flag otherwise.\n\n"
    "The joining cluster's token controller (kube-controller-manager) must be running: join\n"
    "creates a service account token Secret there and waits up to 30s for its token. A join\n"
    "that failed half way can be run again with --error-on-existing=false; it completes what\n"
    "the first run started.\n"
    "With --dry-run, nothing is written and the KubeFedCluster is printed as YAML.",
    "  # Register a cluster with a KubeFed control plane by specifying the cluster name and the\n"
    "  # context name of the control plane's host cluster. Cluster name must be a valid RFC 1123\n"
    "  # subdomain name. Cluster context must be specified if the cluster name is different\n"
    "  # than the cluster's context in the local kubeconfig.\n"
    "  kubefedctl join foo --host-cluster-context=bar"};

struct JoinCommandFlags {
  JoinFlags common;
  std::string secret_name;
  bool error_on_existing = true;

  void addTo(FlagSet& flags) {
    common.addTo(flags);
    flags.addString("secret-name", 0, &secret_name,
                    "Name of the secret where the cluster's credentials will be stored in the "
                    "host cluster. This name should be a valid RFC 1035 label. If unspecified, "
                    "defaults to a generated name containing the cluster name.");
    flags.addBool("error-on-existing", 0, &error_on_existing,
                  "Whether the join operation will throw an error if it encounters existing "
                  "artifacts with the same name as those it's trying to create. If false, the "
                  "join operation will update existing artifacts to match its own "
                  "specification.");
  }
};

// What the servers would reject later, rejected before anything is written.
Status validateRequest(const JoinRequest& request) {
  const std::string account = serviceAccountName(request.cluster_name, request.host_cluster_name);
  if (auto errors = meta::dns1123SubdomainErrors(account); !errors.empty()) {
    return makeError(Reason::kInvalid, "the service account name \"" + account +
                                           "\" (CLUSTER_NAME-HOST_CLUSTER_NAME) is invalid: " +
                                           joinWith(errors, "; ") +
                                           ". Pass --host-cluster-name with a valid name");
  }
  meta::ErrorList errors =
      core::validateApiEndpoint(request.endpoint.server, meta::FieldPath("spec.apiEndpoint"));
  meta::append(
      errors, core::validateProxyUrl(request.endpoint.proxy_url, meta::FieldPath("spec.proxyURL")));
  if (errors.empty()) return boost::outcome_v2::success();
  return makeError(Reason::kInvalid, "the kubeconfig entry of cluster \"" + request.cluster_name +
                                         "\" gives an invalid KubeFedCluster: " +
                                         joinWith(meta::messages(errors), "; "));
}

MemberSetup memberSetupFor(const JoinRequest& request, JoinScope scope) {
  MemberSetup setup;
  setup.cluster_name = request.cluster_name;
  setup.kubefed_namespace = request.kubefed_namespace;
  setup.service_account = serviceAccountName(request.cluster_name, request.host_cluster_name);
  setup.scope = scope;
  setup.error_on_existing = request.error_on_existing;
  setup.token_timeout = request.token_timeout;
  return setup;
}

void printYaml(const Json& object, std::ostream& out) {
  nlohmann::ordered_json ordered;
  for (const char* key : {"apiVersion", "kind", "metadata", "spec"}) {
    if (object.contains(key)) ordered[key] = nlohmann::ordered_json::parse(object[key].dump());
  }
  out << "---\n" << toYaml(ordered);
}

Result<JoinRequest> requestFrom(const JoinCommandFlags& flags, const ResolvedJoin& resolved) {
  KF_TRY(endpoint, joiningEndpoint(resolved.kubeconfig, resolved.target.cluster_context));
  JoinRequest request;
  request.cluster_name = resolved.target.cluster_name;
  request.host_cluster_name = resolved.target.host_cluster_name;
  request.kubefed_namespace = flags.common.global.kubefed_namespace;
  request.secret_name = flags.secret_name;
  request.error_on_existing = flags.error_on_existing;
  request.dry_run = flags.common.global.dry_run;
  request.endpoint = std::move(endpoint);
  return request;
}

}  // namespace

Result<Json> joinCluster(RestClient& host, RestClient* member, const JoinRequest& request,
                         std::ostream& out, Clock& clock) {
  KF_TRYV(validateRequest(request));
  KF_TRY(scope, readJoinScope(host, request.kubefed_namespace));
  if (member == nullptr) return makeError(Reason::kInvalid, "no client for the joining cluster");
  const MemberSetup setup = memberSetupFor(request, scope);
  // KubeFed's preflight, also on a dry run: the joining cluster has no ServiceAccount of ours.
  if (request.error_on_existing) {
    KF_TRYV(checkServiceAccountAbsent(*member, setup));
  }
  KF_TRY(existing, findKubeFedCluster(host, request.kubefed_namespace, request.cluster_name,
                                      request.error_on_existing));
  if (request.dry_run) {
    return kubefedClusterObject(request.endpoint, request.cluster_name, request.kubefed_namespace,
                                request.secret_name, "");
  }
  KF_TRY(token, setUpJoiningCluster(*member, setup, clock, out));
  HostSecretRequest secret{request.cluster_name, request.kubefed_namespace, request.secret_name,
                           token.token_base64, request.error_on_existing};
  KF_TRY(secret_name, writeHostSecret(host, secret, out));
  Json cluster = kubefedClusterObject(request.endpoint, request.cluster_name,
                                      request.kubefed_namespace, secret_name, token.ca_crt_base64);
  KF_TRYV(writeKubeFedCluster(host, cluster, existing, out));
  return cluster;
}

namespace {

class JoinCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override { options_.addTo(flags); }

  int run(const std::vector<std::string>& args, Streams streams) override {
    auto resolved = resolveJoin(options_.common, args);
    if (!resolved) return fail(resolved.error().message, streams);
    auto request = requestFrom(options_, resolved.value());
    if (!request) return fail(request.error().message, streams);

    const Kubeconfig& kubeconfig = resolved.value().kubeconfig;
    auto host = cliClient(kubeconfig, resolved.value().target.host_context);
    if (!host) return fail(host.error().message, streams);
    auto member = cliClient(kubeconfig, resolved.value().target.cluster_context);
    if (!member) return fail(member.error().message, streams);
    auto cluster =
        joinCluster(*host.value(), member.value().get(), request.value(), streams.out, realClock());
    if (!cluster) return fail(cluster.error().message, streams);
    if (request.value().dry_run) printYaml(cluster.value(), streams.out);
    return kExitOk;
  }

  // Cluster names default to kubeconfig contexts of the same name.
  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!args.empty()) return {};
    return {contextNames(options_.common.global), false};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(options_.common.global, flag);
  }

 private:
  JoinCommandFlags options_;
};

}  // namespace

CommandSpec joinCommand() {
  return {"join", kJoinHelp, [] { return std::make_unique<JoinCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

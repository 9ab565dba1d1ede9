#include "cmd/kubefedctl/disable.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/host_resources.h"
#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/type_config.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::kubefedctl {
namespace {

const HelpText kDisableHelp{
    "disable NAME", "Disables propagation of a Kubernetes API type",
    "Disables propagation of a Kubernetes API type. This command can also optionally delete the\n"
    "API resources added by the `enable` command.\n\n"
    "Current context is assumed to be a Kubernetes cluster hosting the kubefed control plane.\n"
    "Please use the --host-cluster-context flag otherwise.",
    "  # Disable propagation of the kubernetes API type 'Deployment', named in "
    "FederatedTypeConfig\n"
    "  # as 'deployments.apps'\n"
    "  kubefedctl disable deployments.apps\n\n"
    "  # Disable propagation of the kubernetes API type 'Deployment', named in "
    "FederatedTypeConfig\n"
    "  # as 'deployments.apps', and delete the corresponding Federated API resource\n"
    "  kubefedctl disable deployments.apps --delete-crd"};

constexpr std::chrono::milliseconds kStopPollInterval{100};
constexpr std::chrono::milliseconds kStopTimeout{10'000};

struct DisableFlags {
  GlobalOptions global;
  bool delete_crd = false;
  std::string federated_group = kDefaultFederatedGroup;
  std::string target_version;

  void addTo(FlagSet& flags) {
    global.addTo(flags);
    flags.addBool("delete-crd", 0, &delete_crd,
                  "Whether to remove the API resource added by 'enable'.");
    flags.addString("federated-group", 0, &federated_group,
                    "Name of the API group to use for deleting the federated CRD type when the "
                    "FederatedTypeConfig resource does not exist. Only used with --delete-crd.");
    flags.addString("version", 0, &target_version,
                    "Optional, the API version of the target type. Only used with --delete-crd.");
  }
};

std::string qualified(const std::string& ns, const std::string& name) { return ns + "/" + name; }

// "deployments.apps" is an FTC name already; anything else is resolved like `enable` does.
Result<std::string> typeConfigName(RestClient& client, const std::string& name,
                                   const std::string& version) {
  if (name.find('.') != std::string::npos) return name;
  DiscoveryClient discovery(client);
  KF_TRY(target, lookupApiResource(discovery, name, version));
  return groupQualifiedName(target.name, target.group);
}

// The federated type of an installed FTC.
GroupVersionResource federatedResource(const Json& type_config) {
  const Json& fed = type_config["spec"]["federatedType"];
  return {fed.value("group", ""), fed.value("version", ""), fed.value("pluralName", ""),
          fed.value("scope", "") == "Namespaced"};
}

// The federated type when no FTC records it: what `enable` would have generated.
Result<GroupVersionResource> generatedFederatedResource(RestClient& client,
                                                        const std::string& ftc_name,
                                                        const DisableFlags& flags) {
  DiscoveryClient discovery(client);
  KF_TRY(target, lookupApiResource(discovery, ftc_name, flags.target_version));
  EnableTypeDirective directive;
  directive.federated_group = flags.federated_group;
  const FederatedTypeInfo federated = federatedTypeFor(target, directive);
  return GroupVersionResource{federated.group, federated.version, federated.plural,
                              federated.namespaced};
}

std::string crdNameOf(const GroupVersionResource& federated) {
  return federated.resource + "." + federated.group;
}

Status requireNoInstances(RestClient& client, const GroupVersionResource& federated) {
  auto listed = ResourceClient(client, federated).list({.limit = 1});
  if (!listed) {
    return isNotFound(listed.error()) ? boost::outcome_v2::success() : Status(listed.error());
  }
  if (listed.value().items.empty()) return boost::outcome_v2::success();
  return makeError(Reason::kInvalid,
                   "Cannot delete CRD \"" + crdNameOf(federated) +
                       "\" while resource instances exist. Please try kubefedctl disable again "
                       "after removing the resource instances or without the '--delete-crd' "
                       "option");
}

Status disablePropagation(ResourceClient& type_configs, const Json& type_config,
                          const std::string& qualified_name, std::ostream& out) {
  if (type_config["spec"].value("propagation", "") != "Enabled") {
    out << "Propagation already disabled for FederatedTypeConfig \"" << qualified_name << "\"\n";
    return boost::outcome_v2::success();
  }
  if (auto patched = type_configs.patch(objectName(type_config), PatchType::kMerge,
                                        R"({"spec":{"propagation":"Disabled"}})");
      !patched) {
    return withContext(patched.error(), "Error disabling propagation for FederatedTypeConfig \"" +
                                            qualified_name + "\"");
  }
  out << "Disabled propagation for FederatedTypeConfig \"" << qualified_name << "\"\n";
  return boost::outcome_v2::success();
}

Status deleteFederatedType(RestClient& client, const GroupVersionResource& federated,
                           std::ostream& out) {
  KF_TRYV(requireNoInstances(client, federated));
  const std::string name = crdNameOf(federated);
  auto removed = ResourceClient(client, kCrds).remove(name);
  if (!removed && isNotFound(removed.error())) {
    out << "customresourcedefinition \"" << name << "\" does not exist\n";
    return boost::outcome_v2::success();
  }
  if (!removed) return withContext(removed.error(), "Error deleting crd \"" + name + "\"");
  out << "customresourcedefinition \"" << name << "\" deleted\n";
  return boost::outcome_v2::success();
}

// Spec §3.4, with KubeFed's lines on stdout.
Status disable(RestClient& client, const std::string& name, const DisableFlags& flags,
               std::ostream& out) {
  const std::string& ns = flags.global.kubefed_namespace;
  KF_TRY(ftc_name, typeConfigName(client, name, flags.target_version));
  const std::string qualified_name = qualified(ns, ftc_name);
  ResourceClient type_configs(client, kTypeConfigs, ns);
  auto found = type_configs.get(ftc_name);
  if (!found && !isNotFound(found.error())) {
    return withContext(found.error(),
                       "Error retrieving FederatedTypeConfig \"" + qualified_name + "\"");
  }
  if (!found) out << "FederatedTypeConfig \"" << qualified_name << "\" does not exist\n";
  if (flags.global.dry_run) return boost::outcome_v2::success();

  // Propagation stops before the CRD goes, so that the controller manager's watches end cleanly.
  if (found) {
    const Json& type_config = found.value();
    if (flags.delete_crd) {
      KF_TRYV(requireNoInstances(client, federatedResource(type_config)));
    }
    KF_TRYV(disablePropagation(type_configs, type_config, qualified_name, out));
    KF_TRYV(waitPropagationStopped(type_configs, ftc_name, qualified_name, client.clock(), out));
  }
  if (flags.delete_crd) {
    KF_TRY(federated, found ? Result<GroupVersionResource>(federatedResource(found.value()))
                            : generatedFederatedResource(client, ftc_name, flags));
    KF_TRYV(deleteFederatedType(client, federated, out));
  }
  if (found) {
    auto removed = type_configs.remove(ftc_name);
    if (!removed && !isNotFound(removed.error())) {
      return withContext(removed.error(),
                         "Error deleting FederatedTypeConfig \"" + qualified_name + "\"");
    }
    out << "federatedtypeconfig \"" << qualified_name << "\" deleted\n";
  }
  return boost::outcome_v2::success();
}

class DisableCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override {
    options_.addTo(flags);
    flags_ = &flags;
  }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (args.size() != 1) return fail("NAME is required", streams);
    if (!options_.delete_crd && flags_->changed("version")) {
      return fail("--version flag valid only with --delete-crd", streams);
    }
    if (!options_.delete_crd && flags_->changed("federated-group")) {
      return fail("--kubefed-group flag valid only with --delete-crd", streams);
    }
    auto client = options_.global.hostClient();
    if (!client) return fail(client.error().message, streams);
    if (auto done = disable(*client.value(), args.front(), options_, streams.out); !done) {
      return fail(done.error().message, streams);
    }
    return kExitOk;
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!args.empty()) return {};
    return {typeConfigNames(options_.global), false};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(options_.global, flag);
  }

 private:
  DisableFlags options_;
  const FlagSet* flags_ = nullptr;  // outlives run(): the command tree owns both
};

}  // namespace

Status waitPropagationStopped(ResourceClient& type_configs, const std::string& name,
                              const std::string& qualified_name, Clock& clock, std::ostream& out) {
  out << "Verifying propagation controller is stopped for FederatedTypeConfig \"" << qualified_name
      << "\"\n";
  out.flush();  // the wait can take seconds: say what it is waiting for now
  const bool stopped = pollImmediate(clock, kStopPollInterval, kStopTimeout, [&] {
    auto current = type_configs.get(name);
    if (!current) {
      spdlog::error(
          "Error retrieving FederatedTypeConfig "
          "\"{}\": {}",
          qualified_name, current.error().message);
      return false;
    }
    return current.value().value("status", Json::object()).value("propagationController", "") ==
           "NotRunning";
  });
  if (!stopped) {
    // KubeFed's message, its cause printed twice as KubeFed's error wrapping does.
    return makeError(Reason::kTimeout,
                     "Unable to verify propagation controller for FederatedTypeConfig \"" +
                         qualified_name +
                         "\" is stopped: timed out waiting for the condition: timed out "
                         "waiting for the condition");
  }
  out << "Propagation controller for FederatedTypeConfig \"" << qualified_name << "\" is stopped\n";
  return boost::outcome_v2::success();
}

CommandSpec disableCommand() {
  return {"disable", kDisableHelp, [] { return std::make_unique<DisableCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

#include "cmd/kubefedctl/orphaning.h"

#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/federated_object.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/type_config.h"

namespace kf::kubefedctl {
namespace {

constexpr const char* kOrphanAnnotation = "kubefed.io/orphan";

enum class Action { kEnable, kDisable, kStatus };

const char* kHostContextNote =
    "\n\nCurrent context is assumed to be a Kubernetes cluster hosting\n"
    "the kubefed control plane. Please use the\n"
    "--host-cluster-context flag otherwise.";

HelpText helpFor(Action action) {
  switch (action) {
    case Action::kEnable:
      return {"enable <resource type> <resource name>",
              "Enable the orphaning (i.e. retention) of resources managed by a federated resource "
              "upon its removal.",
              std::string("Prevents the removal of managed resources from member clusters when "
                          "their managing federated\nresource is removed. This is accomplished by "
                          "adding 'kubefed.io/orphan: true' as an annotation to the\nfederated "
                          "resource.") +
                  kHostContextNote,
              "  # Enable the orphaning mode for a federated resource of type FederatedDeployment "
              "and named foo\n"
              "  kubefedctl orphaning-deletion enable FederatedDeployment foo "
              "--host-cluster-context=cluster1"};
    case Action::kDisable:
      return {"disable <resource type> <resource name>",
              "Disable orphaning deletion to ensure the removal of managed resources before "
              "removing the managing federated resource",
              std::string("Removes previously added \"orphaning enable\" ('kubefed.io/orphan: "
                          "true')\nannotation from a federated resource.  When the federated "
                          "resource is subsequently marked for deletion,\nthe resources it "
                          "manages in member clusters will be removed before the federated "
                          "resource is removed.") +
                  kHostContextNote,
              "  # Disable the orphaning mode for a federated resource of type "
              "FederatedDeployment and named foo\n"
              "  kubefedctl orphaning-deletion disable FederatedDeployment foo "
              "--host-cluster-context=cluster1"};
    case Action::kStatus:
      return {"status <resource type> <resource name>",
              "Get the orphaning deletion status of the federated resource",
              std::string("Checks the status of \"orphaning enable\" ('kubefed.io/orphan: true') "
                          "annotation on a federated resource.\nReturns \"Enabled\" or "
                          "\"Disabled\"") +
                  kHostContextNote,
              "  # Checks the status of the orphaning mode of a federated resource of type "
              "FederatedDeployment and named foo\n"
              "  kubefedctl orphaning-deletion status FederatedDeployment foo "
              "--host-cluster-context=cluster1"};
  }
  return {};
}

bool orphaningEnabled(const Json& object) {
  const Json annotations =
      object.value("metadata", Json::object()).value("annotations", Json::object());
  return annotations.is_object() && annotations.value(kOrphanAnnotation, "") == "true";
}

class OrphaningCommand : public Command {
 public:
  explicit OrphaningCommand(Action action) : action_(action) {}

  void addFlags(FlagSet& flags) override {
    global_.addTo(flags);
    flags.addString("namespace", 'n', &ns_, "If present, the namespace scope for this CLI request");
    flags.hide("kubefed-namespace");
    flags.hide("dry-run");
  }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (args.empty()) return fail("resource type is required", streams);
    if (args.size() == 1) return fail("resource name is required", streams);
    auto done = apply(args[0], args[1], streams);
    return done ? kExitOk : fail(done.error().message, streams);
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (args.empty()) return {federatedTypeNames(global_), false};
    if (args.size() == 1) {
      const auto ns = namespaceToUse();
      return {objectNames(global_, args[0], ns ? ns.value() : "default"), false};
    }
    return {};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(global_, flag);
  }

 private:
  Result<std::string> namespaceToUse() const {
    if (!ns_.empty()) return ns_;
    return global_.contextNamespace();
  }

  Status apply(const std::string& type, const std::string& name, Streams streams) {
    KF_TRY(ns, namespaceToUse());
    KF_TRY(client, global_.hostClient());
    DiscoveryClient discovery(*client);
    auto resource = lookupApiResource(discovery, type, "");
    if (!resource) {
      return makeError(resource.error().reason,
                       "Failed to find targeted " + type + " type: " + resource.error().message);
    }
    const ApiResourceInfo& info = resource.value();
    if (info.kind.rfind("Federated", 0) != 0 || info.group != kDefaultFederatedGroup) {
      streams.out << "Warning: " << groupQualifiedName(info.name, info.group) << "/" << info.version
                  << " might not be a federated resource\n";
    }
    const std::string object_ns = info.namespaced ? ns : "";
    ResourceClient objects(*client, info.gvr(), object_ns);
    auto found = objects.get(name);
    if (!found) {
      return makeError(found.error().reason, "Failed to retrieve resource: \"" +
                                                 qualifiedName(object_ns, name) +
                                                 "\": " + found.error().message);
    }
    Json object = std::move(found).value();
    const bool enabled = orphaningEnabled(object);
    if (action_ == Action::kStatus) {
      streams.out << (enabled ? "Enabled" : "Disabled") << "\n";
      return boost::outcome_v2::success();
    }
    if (enabled == (action_ == Action::kEnable)) return boost::outcome_v2::success();
    Json& annotations = object["metadata"]["annotations"];
    if (action_ == Action::kEnable) {
      annotations[kOrphanAnnotation] = "true";
    } else {
      annotations.erase(kOrphanAnnotation);
    }
    if (auto updated = objects.update(object); !updated) {
      return makeError(updated.error().reason,
                       "Failed to update resource " + object.value("kind", "") + " \"" +
                           qualifiedName(object_ns, name) + "\": " + updated.error().message);
    }
    return boost::outcome_v2::success();
  }

  Action action_;
  GlobalOptions global_;
  std::string ns_;
};

CommandSpec leaf(const std::string& name, Action action) {
  return {
      name, helpFor(action), [action] { return std::make_unique<OrphaningCommand>(action); }, {}};
}

}  // namespace

CommandSpec orphaningDeletionCommand() {
  return {"orphaning-deletion",
          {"orphaning-deletion", "Manage orphaning delete policy", "Manage orphaning delete policy",
           ""},
          nullptr,
          {leaf("enable", Action::kEnable), leaf("disable", Action::kDisable),
           leaf("status", Action::kStatus)}};
}

}  // namespace kf::kubefedctl

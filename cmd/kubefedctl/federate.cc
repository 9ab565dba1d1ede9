#include "cmd/kubefedctl/federate.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "apis/meta/name_validation.h"
#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/enable.h"
#include "cmd/kubefedctl/federated_object.h"
#include "cmd/kubefedctl/host_resources.h"
#include "cmd/kubefedctl/resource_files.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/go_yaml_order.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/type_config.h"
#include "federation/crdgen/yaml_json.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::kubefedctl {
namespace {

const HelpText kFederateHelp{
    "federate TYPE-NAME RESOURCE-NAME",
    "Federate creates a federated resource from a kubernetes resource",
    "Federate creates a federated resource from a kubernetes resource.\n"
    "The target resource must exist in the cluster hosting the kubefed\n"
    "control plane. If the federated resource needs to be created in the\n"
    "API, the control plane must have a FederatedTypeConfig for the type\n"
    "of the kubernetes resource. If using with flag '-o yaml', it is not\n"
    "necessary for the FederatedTypeConfig to exist (or even for the\n"
    "kubefed API to be installed in the cluster).\n\n"
    "Current context is assumed to be a Kubernetes cluster hosting\n"
    "the kubefed control plane. Please use the --host-cluster-context\n"
    "flag otherwise.",
    "  # Federate resource named \"my-cm\" in namespace \"my-ns\" of kubernetes type "
    "\"configmaps\"\n"
    "  # (identified by short name \"cm\")\n"
    "  kubefedctl federate cm \"my-cm\" -n \"my-ns\" --host-cluster-context=cluster1\n\n"
    "  # Federate a namespace and everything in it, enabling the types that are not yet\n"
    "  kubefedctl federate namespaces my-ns --contents --enable-type\n\n"
    "  # Print the federated resources of every object in a file, a directory or stdin\n"
    "  kubefedctl federate -f my-deployment.yaml\n"
    "  kubectl get deployment my-dep -o yaml | kubefedctl federate -f -"};

// A federated type may become servable a moment after its CRD was created.
constexpr std::chrono::seconds kCreateRetryTimeout{10};
constexpr std::chrono::seconds kCreateRetryInterval{1};

struct FederateFlags {
  GlobalOptions global;
  std::string ns;
  std::string output;
  bool enable_type = false;
  bool contents = false;
  std::string filename;
  std::vector<std::string> skip_api_resources;

  void addTo(FlagSet& flags) {
    global.addTo(flags);
    flags.addString("namespace", 'n', &ns, "The namespace of the resource to federate.");
    flags.addString("output", 'o', &output,
                    "If provided, the resource that would be created in the API by the command is "
                    "instead output to stdout in the provided format.  Valid format is ['yaml'].");
    flags.addBool("enable-type", 't', &enable_type,
                  "If true, attempt to enable federation of the API type of the resource before "
                  "creating the federated resource.");
    flags.addBool("contents", 'c', &contents,
                  "Applicable only to namespaces. If provided, the command will federate all "
                  "resources within the namespace after federating the namespace.");
    flags.addString("filename", 'f', &filename,
                    "If specified, the provided yaml file will be used as the input for target "
                    "resources to federate. This mode will only emit federated resource yaml to "
                    "standard output. Other flag options if provided will be ignored.");
    flags.addStringList(
        "skip-api-resources", 's', &skip_api_resources,
        "Comma separated names of the api resources to skip when federating contents in a "
        "namespace. Name could be short name (e.g. 'deploy), kind (e.g. 'deployment'), plural "
        "name (e.g. 'deployments'), group qualified plural name (e.g. 'deployments.apps') or "
        "group name itself (e.g. 'apps') to skip the whole group.");
  }

  bool yaml() const { return output == "yaml"; }
};

// One type's share of a run: its FederatedTypeConfig and the federated objects to write.
struct Artifacts {
  bool type_installed = false;
  TypePair types;
  std::vector<Json> objects;
};

std::string goList(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i == 0 ? "" : " ") + values[i];
  return out + "]";
}

void printYaml(const std::vector<Json>& objects, std::ostream& out) {
  // Keys sorted at every level, as KubeFed's YAML writer prints Go maps.
  for (const auto& object : objects) {
    out << "---\n" << toYaml(sortedLikeGoYaml(OrderedJson::parse(object.dump())));
  }
}

void warnAll(const std::vector<std::string>& warnings) {
  for (const auto& warning : warnings) spdlog::warn("{}", warning);
}

class Federation {
 public:
  Federation(RestClient& client, const FederateFlags& flags) : client_(client), flags_(flags) {}

  // The FederatedTypeConfig of `target`: the installed one, else (with --enable-type or
  // -o yaml) the one `enable` would generate.
  Result<Artifacts> typeConfigFor(const ApiResourceInfo& target) {
    const std::string name = groupQualifiedName(target.name, target.group);
    auto installed =
        ResourceClient(client_, kTypeConfigs, flags_.global.kubefed_namespace).get(name);
    Artifacts artifacts;
    if (installed) {
      KF_TRY(types, typePairOf(installed.value()));
      artifacts.type_installed = true;
      artifacts.types = std::move(types);
      return artifacts;
    }
    const bool not_found = isNotFound(installed.error());
    if (not_found && !flags_.yaml() && !flags_.enable_type) {
      return makeError(installed.error().reason,
                       installed.error().message +
                           ". Consider using '--enable-type' to optionally enable type while "
                           "federating the resource");
    }
    if (!not_found && !flags_.yaml()) return installed.error();
    if (!not_found) {
      spdlog::info("Falling back to a generated type config due to lookup failure: {}",
                   installed.error().message);
    }
    const Json generated = Json::parse(generateTypeConfig(target, EnableTypeDirective{}).dump());
    KF_TRY(types, typePairOf(generated));
    artifacts.types = std::move(types);
    return artifacts;
  }

  Result<Artifacts> artifactsFor(const std::string& type_name, const std::string& ns,
                                 const std::string& name) {
    DiscoveryClient discovery(client_);
    auto target = lookupApiResource(discovery, type_name, "");
    if (!target) {
      return makeError(target.error().reason, "Failed to find target API resource " + type_name +
                                                  ": " + target.error().message);
    }
    KF_TRY(artifacts, typeConfigFor(target.value()));
    const TypePair& types = artifacts.types;
    const std::string target_ns = types.target.namespaced ? ns : "";
    auto object = ResourceClient(client_, types.target, target_ns).get(name);
    if (!object) {
      return makeError(object.error().reason, "Error retrieving target " + types.target_kind +
                                                  " \"" + qualifiedName(ns, name) +
                                                  "\": " + object.error().message);
    }
    std::vector<std::string> warnings;
    artifacts.objects.push_back(federatedObjectFor(types, object.value(), &warnings));
    warnAll(warnings);
    return artifacts;
  }

  // Every object of every federatable type in `ns` (--contents).
  Result<std::vector<Artifacts>> contentsOf(const std::string& ns) {
    DiscoveryClient discovery(client_);
    KF_TRY(resources, preferredResources(discovery));
    std::vector<Artifacts> out;
    for (const auto& type : typesToFederate(resources, flags_.skip_api_resources)) {
      auto listed = ResourceClient(client_, type.gvr(), ns).listAll({});
      if (!listed && isNotFound(listed.error())) continue;
      if (!listed) {
        return makeError(listed.error().reason, "Error listing resources for " + type.kind + ": " +
                                                    listed.error().message);
      }
      std::vector<Json> objects = federatable(listed.value().items, type);
      if (objects.empty()) continue;
      KF_TRY(artifacts, typeConfigFor(type));
      std::vector<std::string> warnings;
      for (const auto& object : objects) {
        artifacts.objects.push_back(federatedObjectFor(artifacts.types, object, &warnings));
      }
      warnAll(warnings);
      out.push_back(std::move(artifacts));
    }
    return out;
  }

  Status create(const std::vector<Artifacts>& all, std::ostream& out) {
    for (const auto& artifacts : all) {
      if (flags_.enable_type && !artifacts.type_installed) {
        KF_TRYV(enableType(client_, artifacts.types.name, flags_.global.kubefed_namespace,
                           flags_.global.dry_run, out));
      }
      for (const auto& object : artifacts.objects) {
        KF_TRYV(createOne(artifacts.types, object));
      }
    }
    return boost::outcome_v2::success();
  }

 private:
  // Objects whose names members could not hold are left out, with a warning.
  static std::vector<Json> federatable(const std::vector<Json>& items,
                                       const ApiResourceInfo& type) {
    std::vector<Json> out;
    for (const auto& item : items) {
      const auto errors = meta::dns1123SubdomainErrors(objectName(item));
      if (errors.empty()) {
        out.push_back(item);
        continue;
      }
      spdlog::warn(
          "Skipping resource {} of type {} because it does not conform to the DNS-1123 "
          "subdomain spec.",
          objectName(item), type.name);
      spdlog::warn("The following error(s) were reported during DNS-1123 validation: ");
      for (const auto& error : errors) spdlog::warn("{}", error);
    }
    return out;
  }

  Status createOne(const TypePair& types, const Json& object) {
    if (types.target_kind == "Namespace") {
      spdlog::info(
          "Resource to federate is a namespace. Given namespace will itself be the container for "
          "the federated namespace");
    }
    const std::string name = qualifiedName(objectNamespace(object), objectName(object));
    if (!flags_.global.dry_run) {
      ResourceClient federated(client_, types.federated, objectNamespace(object));
      Result<Json> created = createWhenServed(federated, object, client_.clock());
      if (!created) {
        return makeError(created.error().reason, "Error creating federated resource \"" + name +
                                                     "\": " + created.error().message);
      }
    }
    spdlog::info("Successfully created {} \"{}\" from {}", types.federated_kind, name,
                 types.target_kind);
    return boost::outcome_v2::success();
  }

  RestClient& client_;
  const FederateFlags& flags_;
};

// -f: no cluster is needed; every type is assumed enabled with the defaults.
int federateFiles(const FederateFlags& flags, Streams streams) {
  auto objects = readResourceFiles(flags.filename, streams.in);
  if (!objects) {
    return fail(
        "Failed to load yaml from file \"" + flags.filename + "\": " + objects.error().message,
        streams);
  }
  std::vector<Json> federated;
  std::vector<std::string> warnings;
  for (const auto& [object, source] : objects.value()) {
    auto resource = guessedResourceOf(object);
    if (!resource) return fail(source + ": " + resource.error().message, streams);
    const Json generated =
        Json::parse(generateTypeConfig(resource.value(), EnableTypeDirective{}).dump());
    auto types = typePairOf(generated);
    if (!types) return fail(source + ": " + types.error().message, streams);
    federated.push_back(federatedObjectFor(types.value(), object, &warnings));
  }
  warnAll(warnings);
  printYaml(federated, streams.out);
  return kExitOk;
}

class FederateCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override { options_.addTo(flags); }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (!options_.output.empty() && !options_.yaml()) {
      return fail("Invalid value for --output: " + options_.output, streams);
    }
    if (!options_.filename.empty()) {
      if (!args.empty()) {
        return fail("Flag '--filename' does not take any args. Got args: " + goList(args), streams);
      }
      return federateFiles(options_, streams);
    }
    if (args.empty()) return fail("TYPE-NAME is required", streams);
    if (args.size() == 1) return fail("RESOURCE-NAME is required", streams);
    if (options_.enable_type && options_.yaml()) {
      return fail("Flag '--enable-type' cannot be used with '--output [yaml]'", streams);
    }
    auto done = federate(args[0], args[1], streams);
    return done ? kExitOk : fail(done.error().message, streams);
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!options_.filename.empty()) return {};
    if (args.empty()) return {typeConfigNames(options_.global), false};
    if (args.size() == 1) return {objectNames(options_.global, args[0], namespaceOrEmpty()), false};
    return {};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(options_.global, flag);
  }

 private:
  std::string namespaceOrEmpty() const {
    if (!options_.ns.empty()) return options_.ns;
    auto ns = options_.global.contextNamespace();
    return ns ? ns.value() : "default";
  }

  Status federate(const std::string& type_name, const std::string& name, Streams streams) {
    std::string ns = options_.ns;
    if (ns.empty()) {
      KF_TRY(from_context, options_.global.contextNamespace());
      ns = from_context;
    }
    KF_TRY(client, options_.global.hostClient());
    Federation federation(*client, options_);
    KF_TRY(first, federation.artifactsFor(type_name, ns, name));
    const bool is_namespace = first.types.target_kind == "Namespace";
    if (options_.contents && !is_namespace) {
      return makeError(Reason::kInvalid,
                       "Flag '--contents' can only be used with type "
                       "'namespaces'.");
    }
    std::vector<Artifacts> all;
    all.push_back(std::move(first));
    if (options_.contents) {
      KF_TRY(contents, federation.contentsOf(name));
      for (auto& artifacts : contents) all.push_back(std::move(artifacts));
    }
    if (options_.yaml()) {
      for (const auto& artifacts : all) printYaml(artifacts.objects, streams.out);
      return boost::outcome_v2::success();
    }
    return federation.create(all, streams.out);
  }

  FederateFlags options_;
};

}  // namespace

Result<Json> createWhenServed(ResourceClient& federated, const Json& object, Clock& clock) {
  Result<Json> created = makeError(Reason::kUnknown, "not tried");
  pollImmediate(clock, kCreateRetryInterval, kCreateRetryTimeout, [&] {
    created = federated.create(object);
    return created || !isNotFound(created.error());
  });
  return created;
}

CommandSpec federateCommand() {
  return {"federate", kFederateHelp, [] { return std::make_unique<FederateCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

#include "cmd/kubefedctl/enable.h"

#include <fstream>
#include <sstream>

#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/create_resources.h"
#include "federation/client/discovery.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/target_schema.h"
#include "federation/crdgen/yaml_json.h"

namespace kf::kubefedctl {
namespace {

const HelpText kEnableHelp{
    "enable (NAME | -f FILENAME)", "Enables propagation of a Kubernetes API type",
    "Enables propagation of a Kubernetes API type. This command can also enable propagation of a\n"
    "non-Kubernetes API type.\n\n"
    "Enabling propagation involves creating a FederatedTypeConfig resource in the KubeFed system\n"
    "namespace and a Federated<Kind> CustomResourceDefinition for the API type. Use -o yaml to\n"
    "print both without creating them.\n\n"
    "Current context is assumed to be a Kubernetes cluster hosting the kubefed control plane.\n"
    "Please use the --host-cluster-context flag otherwise.",
    "  # Enable propagation for the Deployment type\n"
    "  kubefedctl enable deployments.apps --host-cluster-context=cluster1\n\n"
    "  # Enable propagation for a type described by an EnableTypeDirective file\n"
    "  kubefedctl enable -f my-directive.yaml --host-cluster-context=cluster1\n\n"
    "  # Print the FederatedTypeConfig and the CRD instead of creating them\n"
    "  kubefedctl enable configmaps -o yaml"};

struct EnableFlags {
  GlobalOptions global;
  std::string federated_group = kDefaultFederatedGroup;
  std::string target_version;
  std::string federated_version = kDefaultFederatedVersion;
  std::string output;
  std::string filename;

  void addTo(FlagSet& flags) {
    global.addTo(flags);
    flags.addString("federated-group", 0, &federated_group,
                    "Name of the API group to use for the generated federated type.");
    flags.addString("version", 0, &target_version, "Optional, the API version of the target type.");
    flags.addString("federated-version", 0, &federated_version,
                    "The API version to use for the generated federated type.");
    flags.addString("output", 'o', &output,
                    "If provided, the resources that would be created in the API by the command "
                    "are instead output to stdout in the provided format.  Valid format is "
                    "['yaml'].");
    flags.addString("filename", 'f', &filename,
                    "If provided, the command will be configured from the provided yaml file.  "
                    "Only --output will be accepted from the command line");
  }
};

Result<EnableTypeDirective> directiveFromFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) return makeError(Reason::kNotFound, "Failed to read file \"" + path + "\"");
  std::stringstream text;
  text << file.rdbuf();
  KF_TRY(documents, yamlDocumentsToJson(text.str()));
  if (documents.size() != 1) {
    return makeError(Reason::kInvalid, "Expected one EnableTypeDirective in \"" + path +
                                           "\", found " + std::to_string(documents.size()));
  }
  return directiveFromJson(documents.front());
}

Result<EnableTypeDirective> directiveFrom(const EnableFlags& flags,
                                          const std::vector<std::string>& positional) {
  // A directive file stands for NAME and every flag but --output, as in KubeFed.
  if (!flags.filename.empty()) return directiveFromFile(flags.filename);
  if (positional.size() != 1) {
    return makeError(Reason::kInvalid, "NAME is required");
  }
  EnableTypeDirective directive;
  directive.target_name = positional.front();
  directive.target_version = flags.target_version;
  directive.federated_group = flags.federated_group;
  directive.federated_version = flags.federated_version;
  return directive;
}

Result<EnableResources> resourcesFor(RestClient& client, const EnableTypeDirective& directive) {
  DiscoveryClient discovery(client);
  KF_TRY(target, lookupApiResource(discovery, directive.target_name, directive.target_version));
  KF_TRY(schema, fetchTargetSchema(client, target));
  return generateEnableResources(target, schema, directive);
}

void writeYaml(const EnableResources& resources, std::ostream& out) {
  out << "---\n" << toYaml(resources.type_config) << "---\n" << toYaml(resources.crd);
}

class EnableCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override { options_.addTo(flags); }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (!options_.output.empty() && options_.output != "yaml") {
      return fail("invalid value for --output: " + options_.output, streams);
    }
    auto directive = directiveFrom(options_, args);
    if (!directive) return fail(directive.error().message, streams);

    auto client = options_.global.hostClient();
    if (!client) return fail(client.error().message, streams);
    auto resources = resourcesFor(*client.value(), directive.value());
    if (!resources) return fail(resources.error().message, streams);

    if (options_.output == "yaml") {
      writeYaml(resources.value(), streams.out);
      return kExitOk;
    }
    CreateOptions create{options_.global.kubefed_namespace, options_.global.dry_run};
    if (auto created = createResources(*client.value(), resources.value(), create, streams.out);
        !created) {
      return fail(created.error().message, streams);
    }
    return kExitOk;
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!args.empty()) return {};
    return {apiTypeNames(options_.global), false};
  }

  Completion completeFlagValue(const std::string& flag) override {
    return completeGlobalFlag(options_.global, flag);
  }

 private:
  EnableFlags options_;
};

}  // namespace

Status enableType(RestClient& client, const std::string& name, const std::string& kubefed_namespace,
                  bool dry_run, std::ostream& out) {
  EnableTypeDirective directive;
  directive.target_name = name;
  KF_TRY(resources, resourcesFor(client, directive));
  return createResources(client, resources, CreateOptions{kubefed_namespace, dry_run}, out);
}

CommandSpec enableCommand() {
  return {"enable", kEnableHelp, [] { return std::make_unique<EnableCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

#include "cmd/kubefedctl/plan.h"

#include "cmd/kubefedctl/completion_sources.h"
#include "cmd/kubefedctl/plan_report.h"
#include "cmd/kubefedctl/plan_sources.h"
#include "cmd/kubefedctl/resource_files.h"

namespace kf::kubefedctl {
namespace {

const HelpText kPlanHelp{
    "plan (TYPE NAME | -f FILENAME)",
    "Show what the sync controller would do in each member cluster for a federated resource",
    "Show what the sync controller would do in each member cluster for a federated resource,\n"
    "without doing it: create, update (with a unified diff of the member object, live to as\n"
    "the controller would write it, after retention rules and overrides), adopt, delete,\n"
    "remove the managed label, or nothing; and the Propagation status the sync would leave.\n"
    "The prediction is made with the sync controller's own decisions, from the live member\n"
    "objects, the KubeFedClusters, the KubeFedConfig and the recorded propagated versions.\n\n"
    "TYPE names a federated type or its target type (e.g. federateddeployments or\n"
    "deployments.apps). With -f, each federated object of the file, directory or standard\n"
    "input is planned as it would be stored after applying it: its spec, labels and\n"
    "annotations over the stored object of that name, or as a new object.\n\n"
    "Nothing is written: member objects are read, and the diffs come from server-side dry\n"
    "runs. The controller manager's --feature-gates flag is not visible here; the\n"
    "KubeFedConfig's feature gates are.\n\n"
    "Exit status: 0 when no member would be written, 1 when some would, 2 when a member\n"
    "cluster could not be read (the others are still planned), and more on other errors.",
    "  # What would propagating the stored FederatedDeployment web in namespace shop do?\n"
    "  kubefedctl plan federateddeployments web -n shop\n\n"
    "  # The same, for the edited file before applying it, as JSON\n"
    "  kubefedctl plan -f web.yaml -o json\n\n"
    "  # Every federated object of a directory; fails a CI step when something would change\n"
    "  kubefedctl plan -f manifests/"};

struct PlanFlags {
  GlobalOptions global;
  std::string ns;
  std::string filename;
  std::string output;

  void addTo(FlagSet& flags) {
    global.addTo(flags);
    flags.hide("dry-run");  // plan never writes
    flags.addString("namespace", 'n', &ns,
                    "The namespace of the federated resource (default: the context's).");
    flags.addString("filename", 'f', &filename,
                    "Plan the federated resources of this file, directory or '-' (standard "
                    "input) as they would be after applying them.");
    flags.addString("output", 'o', &output, "Output format: '' (text) or 'json'.");
  }
};

class PlanCommand : public Command {
 public:
  void addFlags(FlagSet& flags) override { flags_.addTo(flags); }

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (!flags_.output.empty() && flags_.output != "json") {
      return fail("Invalid value for --output: " + flags_.output + " (valid: json)", streams);
    }
    if (!flags_.filename.empty() && !args.empty()) {
      return fail("TYPE and NAME cannot be given with -f: the file names the objects", streams);
    }
    if (flags_.filename.empty() && args.size() != 2) {
      return fail(
          "TYPE and NAME are required: kubefedctl plan TYPE NAME [-n NAMESPACE], or "
          "kubefedctl plan -f FILENAME",
          streams);
    }
    auto plans = collect(args, streams);
    if (!plans) return fail(plans.error().message, streams);
    if (flags_.output == "json") {
      streams.out << planJson(plans.value()).dump(2) << "\n";
    } else {
      printPlanText(plans.value(), streams.out);
    }
    return planExitCode(plans.value());
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!flags_.filename.empty()) return {};
    if (args.empty()) return {federatedTypeNames(flags_.global), false};
    if (args.size() == 1) return {objectNames(flags_.global, args[0], namespaceOr("")), false};
    return {};
  }

  Completion completeFlagValue(const std::string& flag) override {
    if (flag == "output") return {{"json"}, false};
    return completeGlobalFlag(flags_.global, flag);
  }

 private:
  // -n, else the host context's namespace, else `fallback`.
  std::string namespaceOr(const std::string& fallback) const {
    if (!flags_.ns.empty()) return flags_.ns;
    auto ns = flags_.global.contextNamespace();
    return ns ? ns.value() : fallback;
  }

  // The namespace a federated object of `type` named `name` lives in ("" when cluster-scoped).
  Result<std::string> namespaceFor(const sync::SyncTypeInfo& type, const std::string& name) const {
    if (!type.federated_type.namespaced()) return std::string();
    if (!flags_.ns.empty()) return flags_.ns;
    // A FederatedNamespace lives in the namespace it describes.
    if (type.target_is_namespace) return name;
    return flags_.global.contextNamespace();
  }

  Result<std::vector<ObjectPlan>> collect(const std::vector<std::string>& args, Streams streams) {
    KF_TRY(host, flags_.global.hostClient());
    KF_TRY(sources, PlanSources::load(*host, flags_.global.kubefed_namespace));
    if (flags_.filename.empty()) {
      KF_TRY(type, sources->typeNamed(args[0]));
      KF_TRY(ns, namespaceFor(type, args[1]));
      KF_TRY(object, sources->storedObject(type, QualifiedName{ns, args[1]}));
      KF_TRY(plan, sources->plan(type, object));
      return std::vector<ObjectPlan>{std::move(plan)};
    }
    return collectFiles(*sources, streams);
  }

  Result<std::vector<ObjectPlan>> collectFiles(PlanSources& sources, Streams streams) {
    auto documents = readResourceFiles(flags_.filename, streams.in);
    if (!documents) {
      return makeError(documents.error().reason, "Failed to load yaml from file \"" +
                                                     flags_.filename +
                                                     "\": " + documents.error().message);
    }
    std::vector<ObjectPlan> plans;
    for (auto& [document, source] : documents.value()) {
      auto planned = planDocument(sources, std::move(document));
      if (!planned) {
        return makeError(planned.error().reason, source + ": " + planned.error().message);
      }
      planned.value().source = source;
      plans.push_back(std::move(planned).value());
    }
    return plans;
  }

  Result<ObjectPlan> planDocument(PlanSources& sources, Json document) {
    KF_TRY(type, sources.typeOfDocument(document));
    if (objectName(document).empty()) {
      return makeError(Reason::kInvalid, "the object has no metadata.name");
    }
    if (objectNamespace(document).empty()) {
      KF_TRY(ns, namespaceFor(type, objectName(document)));
      if (!ns.empty()) document["metadata"]["namespace"] = ns;
    }
    KF_TRY(object, sources.appliedObject(type, std::move(document)));
    return sources.plan(type, object);
  }

  PlanFlags flags_;
};

}  // namespace

CommandSpec planCommand() {
  return {"plan", kPlanHelp, [] { return std::make_unique<PlanCommand>(); }, {}};
}

}  // namespace kf::kubefedctl

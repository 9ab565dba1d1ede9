#include "cmd/kubefedctl/root.h"

#include "cmd/cli/version.h"
#include "cmd/kubefedctl/completion.h"
#include "cmd/kubefedctl/disable.h"
#include "cmd/kubefedctl/enable.h"
#include "cmd/kubefedctl/federate.h"
#include "cmd/kubefedctl/join.h"
#include "cmd/kubefedctl/orphaning.h"
#include "cmd/kubefedctl/plan.h"
#include "cmd/kubefedctl/rollout.h"
#include "cmd/kubefedctl/unjoin.h"

namespace kf::kubefedctl {
namespace {

// `kubefedctl version` (spec §3.7).
class VersionCommand : public Command {
 public:
  void addFlags(FlagSet&) override {}
  int run(const std::vector<std::string>&, Streams streams) override {
    streams.out << "kubefedctl version: " << cli::versionInfo() << "\n";
    return kExitOk;
  }
};

CommandSpec versionCommand() {
  return {"version",
          {"version", "Print the version info", "Print the version info", ""},
          [] { return std::make_unique<VersionCommand>(); },
          {}};
}

}  // namespace

const CommandSpec& kubefedctlCommands() {
  static const CommandSpec root{
      "kubefedctl",
      {"", "kubefedctl controls a Kubernetes Cluster Federation",
       "kubefedctl controls a Kubernetes Cluster Federation. Find more information at "
       "https://sigs.k8s.io/kubefed.",
       ""},
      nullptr,
      {completionCommand(), disableCommand(), enableCommand(), federateCommand(), joinCommand(),
       orphaningDeletionCommand(), planCommand(), rolloutCommand(), unjoinCommand(),
       versionCommand()}};
  return root;
}

int runRoot(const std::vector<std::string>& args, Streams streams) {
  // The shell's completion scripts call this with the raw words of the command line.
  if (!args.empty() && args.front() == "__complete") {
    return printCompletions(kubefedctlCommands(), {args.begin() + 1, args.end()}, streams);
  }
  return cli::execute(kubefedctlCommands(), args, streams);
}

}  // namespace kf::kubefedctl

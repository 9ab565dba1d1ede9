#include "cmd/kubefedctl/root.h"

#include <functional>
#include <map>

#include "cmd/kubefedctl/disable.h"
#include "cmd/kubefedctl/enable.h"
#include "cmd/kubefedctl/join.h"
#include "cmd/kubefedctl/unjoin.h"
#include "cmd/kubefedctl/version.h"

namespace kf::kubefedctl {
namespace {

struct Subcommand {
  const char* summary;
  std::function<int(const std::vector<std::string>&, Streams)> run;
};

const std::map<std::string, Subcommand>& subcommands() {
  static const std::map<std::string, Subcommand> commands{
      {"disable", {"Disables propagation of a Kubernetes API type", runDisable}},
      {"enable", {"Enables propagation of a Kubernetes API type", runEnable}},
      {"join", {"Register a cluster with a KubeFed control plane", runJoin}},
      {"unjoin", {"Remove the registration of a cluster from a KubeFed control plane", runUnjoin}},
      {"version", {"Print the version info", runVersion}},
  };
  return commands;
}

void printRootHelp(std::ostream& out) {
  out << "kubefedctl controls a Kubernetes Cluster Federation. Find more information at "
         "https://sigs.k8s.io/kubefed.\n\n"
         "Usage:\n  kubefedctl [flags]\n  kubefedctl [command]\n\nAvailable Commands:\n";
  for (const auto& [name, command] : subcommands()) {
    out << "  " << name << std::string(12 - name.size(), ' ') << command.summary << "\n";
  }
  out << "\nFlags:\n  -h, --help   help for kubefedctl\n\n"
         "Use \"kubefedctl [command] --help\" for more information about a command.\n";
}

}  // namespace

int runRoot(const std::vector<std::string>& args, Streams streams) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    if (args.size() > 1 && subcommands().count(args[1])) {
      return subcommands().at(args[1]).run({"--help"}, streams);
    }
    printRootHelp(streams.out);
    return 0;
  }
  auto it = subcommands().find(args[0]);
  if (it == subcommands().end()) {
    streams.err << "Error: unknown command \"" << args[0] << "\" for \"kubefedctl\"\n"
                << "Run 'kubefedctl --help' for usage.\n";
    return kUsageExitCode;
  }
  return it->second.run({args.begin() + 1, args.end()}, streams);
}

}  // namespace kf::kubefedctl

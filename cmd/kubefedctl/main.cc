// kubefedctl: dispatches to one subcommand.

#include <string>
#include <vector>

#include "cmd/cli/logging.h"
#include "cmd/kubefedctl/root.h"

int main(int argc, char** argv) {
  // Until a command sets logging up from its flags, anything logged goes to stderr, as klog's.
  (void)kf::cli::setUpLogging({});
  std::vector<std::string> args(argv + 1, argv + argc);
  return kf::kubefedctl::runRoot(args, {});
}

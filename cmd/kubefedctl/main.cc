// kubefedctl: dispatches to one subcommand.

#include <string>
#include <vector>

#include "cmd/kubefedctl/root.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return kf::kubefedctl::runRoot(args, {});
}

// controller-manager: the KubeFed control plane's controllers (spec §2.1).

#include <string>
#include <vector>

#include "cmd/controller-manager/run.h"

int main(int argc, char** argv) {
  return kf::manager::runControllerManager(std::vector<std::string>(argv + 1, argv + argc));
}

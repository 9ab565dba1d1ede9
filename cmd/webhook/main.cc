// webhook: KubeFed's admission webhook server (spec §2.10).

#include <string>
#include <vector>

#include "cmd/webhook/run.h"

int main(int argc, char** argv) {
  return kf::webhook::runWebhook(std::vector<std::string>(argv + 1, argv + argc));
}

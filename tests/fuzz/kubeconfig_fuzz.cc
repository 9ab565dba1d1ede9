// libFuzzer target for kubeconfig files: any bytes are parsed as a kubeconfig and every context
// (and the current one) is resolved into a RestConfig, as --kubeconfig and KUBECONFIG do. File
// references are pointed at a path that does not exist, so the run reads nothing from the
// machine and exercises the "cannot read" paths. Invariants: no crash, leak or undefined
// behaviour; an error never repeats a token, password or private key of the file (each is
// replaced by a sentinel before the contexts are resolved, and no message may hold it).
// Build and run: tests/fuzz/CMakeLists.txt.

#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "federation/client/kubeconfig.h"

namespace kf {
namespace {

constexpr const char* kMissingFile = "/nonexistent/kubefed-cpp-fuzz/file";

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

// A credential no message could contain by chance: every token, password and key written in
// the file is replaced by one before the contexts are resolved, and no error may repeat it.
constexpr const char* kSentinel = "kubefed-cpp-fuzz-credential-sentinel";

void markCredentials(Kubeconfig& config) {
  for (auto& [name, user] : config.users) {
    for (std::string* value : {&user.token, &user.password, &user.client_key_data}) {
      if (!value->empty()) *value = kSentinel;
    }
  }
}

void pointFilesNowhere(Kubeconfig& config) {
  for (auto& [name, cluster] : config.clusters) {
    if (!cluster.certificate_authority.empty()) cluster.certificate_authority = kMissingFile;
  }
  for (auto& [name, user] : config.users) {
    for (std::string* path : {&user.client_certificate, &user.client_key, &user.token_file}) {
      if (!path->empty()) *path = kMissingFile;
    }
  }
}

void exercise(const std::string& input) {
  auto parsed = parseKubeconfig(input, "/fuzz/kubeconfig");
  if (!parsed) {
    check(!parsed.error().message.empty(), "a parse error says what is wrong");
    return;
  }
  Kubeconfig config = std::move(parsed).value();
  markCredentials(config);
  pointFilesNowhere(config);
  std::vector<std::string> contexts = config.contextNames();
  contexts.push_back("");  // the current context
  for (const auto& context : contexts) {
    auto rest = restConfigFor(config, context);
    if (rest) continue;
    const std::string& message = rest.error().message;
    check(!message.empty(), "a resolution error says what is wrong");
    // (The fuzzer learns the sentinel from the comparisons and may write it elsewhere itself.)
    if (input.find(kSentinel) == std::string::npos) {
      check(message.find(kSentinel) == std::string::npos, "an error repeats a credential");
    }
  }
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kf::exercise(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}

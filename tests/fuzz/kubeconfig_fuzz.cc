// libFuzzer target for kubeconfig files: any bytes are parsed as a kubeconfig and every context
// (and the current one) is resolved into a RestConfig, as --kubeconfig and KUBECONFIG do. File
// references are pointed at a path that does not exist, so the run reads nothing from the
// machine and exercises the "cannot read" paths. Invariants: no crash, leak or undefined
// behaviour; an error never repeats a token, password or private key written in the file.
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

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// Credentials written once in the input and long enough not to match a name by chance: an
// error message must never contain them.
std::vector<std::string> credentialsOf(const Kubeconfig& config, const std::string& input) {
  std::vector<std::string> out;
  for (const auto& [name, user] : config.users) {
    for (const std::string* value : {&user.token, &user.password, &user.client_key_data}) {
      if (value->size() >= 12 && occurrences(input, *value) == 1) out.push_back(*value);
    }
  }
  return out;
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
  const auto credentials = credentialsOf(config, input);
  pointFilesNowhere(config);
  std::vector<std::string> contexts = config.contextNames();
  contexts.push_back("");  // the current context
  for (const auto& context : contexts) {
    auto rest = restConfigFor(config, context);
    if (rest) continue;
    const std::string& message = rest.error().message;
    check(!message.empty(), "a resolution error says what is wrong");
    for (const auto& secret : credentials) {
      check(message.find(secret) == std::string::npos, "an error repeats a credential");
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

#include "cmd/kubefedctl/version.h"

namespace kf::kubefedctl {
namespace {

const HelpText kVersionHelp{"version", "Print the version info", "Print the version info", ""};

// The build stamps these when it knows them; KubeFed's defaults otherwise.
#ifndef KF_GIT_VERSION
#define KF_GIT_VERSION "v0.0.0-master+$Format:%h$"
#endif
#ifndef KF_GIT_COMMIT
#define KF_GIT_COMMIT "$Format:%H$"
#endif

std::string platform() {
#if defined(__x86_64__)
  return "linux/amd64";
#elif defined(__aarch64__)
  return "linux/arm64";
#else
  return "linux/unknown";
#endif
}

}  // namespace

int runVersion(const std::vector<std::string>& args, Streams streams) {
  FlagSet flags;
  if (int code = parseOrExit(flags, args, kVersionHelp, streams); code >= 0) return code;
  // Shaped like KubeFed's Go %#v of version.Info, which scripts grep.
  streams.out << "kubefedctl version: version.Info{Version:\"" << KF_GIT_VERSION
              << "\", GitCommit:\"" << KF_GIT_COMMIT
              << "\", GitTreeState:\"\", BuildDate:\"1970-01-01T00:00:00Z\", GoVersion:\"\", "
                 "Compiler:\"gcc\", Platform:\""
              << platform() << "\"}\n";
  return 0;
}

}  // namespace kf::kubefedctl

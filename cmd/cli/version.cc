#include "cmd/cli/version.h"

namespace kf::cli {
namespace {

// The build stamps these when it knows them; KubeFed's defaults otherwise.
#ifndef KF_GIT_VERSION
#define KF_GIT_VERSION "v0.0.0-master+$Format:%h$"
#endif
#ifndef KF_GIT_COMMIT
#define KF_GIT_COMMIT "$Format:%H$"
#endif

// Go's runtime.GOOS/GOARCH, as KubeFed's version.Get() reports them.
constexpr const char* kPlatform =
#if defined(__x86_64__)
    "linux/amd64";
#elif defined(__aarch64__)
    "linux/arm64";
#else
    "linux/unknown";
#endif

constexpr const char* kCompiler =
#if defined(__clang__)
    "clang";
#else
    "gcc";
#endif

}  // namespace

std::string versionInfo() {
  return std::string("version.Info{Version:\"") + KF_GIT_VERSION + "\", GitCommit:\"" +
         KF_GIT_COMMIT +
         "\", GitTreeState:\"\", BuildDate:\"1970-01-01T00:00:00Z\", GoVersion:\"\", Compiler:\"" +
         kCompiler + "\", Platform:\"" + kPlatform + "\"}";
}

}  // namespace kf::cli

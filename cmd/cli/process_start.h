#pragma once
// What the controller manager and the webhook do before their work, in the same order: stop
// signals blocked before any thread starts, then the flags (an error, --help, the version line,
// --version, logging, the flags at -v 1).

#include <signal.h>

#include <atomic>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

#include "apis/meta/api_error.h"
#include "cmd/cli/logging.h"

namespace kf::cli {

// SIGTERM and SIGINT, blocked from construction in the constructing thread and every thread it
// starts later (so construct it first), then taken by one of the two waits.
class StopSignals {
 public:
  StopSignals();
  // Joins the thread start() started.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // From now on the first signal requests `stop`, on a thread of its own. Once only.
  void stopOnSignal(std::stop_source stop);
  // Blocks the caller until a signal arrives.
  void wait();

 private:
  sigset_t signals_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

struct StartupText {
  std::string usage;
  std::string version_line;
  bool usage_after_error = false;  // a flag error is followed by the usage
};

// The flag prologue of a binary whose Options have `help`, `print_version`, `logging` and
// `verbosity`, and a describeFlags(Options) next to them. nullopt: go on with the options; else
// the exit code to end the process with (0 after --help or --version, cobra's after bad flags).
template <typename Options>
std::optional<int> startUp(const Result<Options>& parsed, const StartupText& text);

// The part that does not depend on the options' type.
std::optional<int> startUpFailed(const ApiError& error, const StartupText& text);
std::optional<int> startUp(bool help, bool print_version, const LogSettings& logging, int verbosity,
                           const std::function<std::string()>& describe_flags,
                           const StartupText& text);

template <typename Options>
std::optional<int> startUp(const Result<Options>& parsed, const StartupText& text) {
  if (!parsed) return startUpFailed(parsed.error(), text);
  const Options& options = parsed.value();
  return startUp(
      options.help, options.print_version, options.logging, options.verbosity,
      [&options] { return describeFlags(options); }, text);
}

}  // namespace kf::cli

#include "cmd/cli/process_start.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <ctime>
#include <iostream>

#include "cmd/cli/command.h"

namespace kf::cli {
namespace {

const char* signalName(int signal) { return signal == SIGTERM ? "SIGTERM" : "SIGINT"; }

}  // namespace

StopSignals::StopSignals() {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGTERM);
  sigaddset(&signals_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
}

StopSignals::~StopSignals() {
  done_ = true;
  if (thread_.joinable()) thread_.join();
}

void StopSignals::stopOnSignal(std::stop_source stop) {
  thread_ = std::thread([this, stop]() mutable {
    // A timed wait, so that the destructor can end the thread when no signal ever comes.
    const timespec poll{0, 200'000'000};
    while (!done_) {
      const int signal = sigtimedwait(&signals_, nullptr, &poll);
      if (signal > 0) {
        spdlog::info("Received signal {}, stopping", signalName(signal));
        stop.request_stop();
        return;
      }
    }
  });
}

void StopSignals::wait() {
  int signal = 0;
  while (sigwait(&signals_, &signal) != 0) {
  }
  spdlog::info("Received signal {}, stopping", signalName(signal));
}

std::optional<int> startUpFailed(const ApiError& error, const StartupText& text) {
  std::cerr << "Error: " << error.message << "\n";
  if (text.usage_after_error) std::cerr << text.usage;
  return kExitUsage;
}

std::optional<int> startUp(bool help, bool print_version, const LogSettings& logging, int verbosity,
                           const std::function<std::string()>& describe_flags,
                           const StartupText& text) {
  if (help) {
    std::cout << text.usage;
    return 0;
  }
  std::cout << text.version_line << std::endl;
  if (print_version) return 0;
  if (auto set_up = setUpLogging(logging); !set_up) {
    std::cerr << "Error: " << set_up.error().message << "\n";
    return kExitUsage;
  }
  if (verbosity >= 1) spdlog::info("Flags: {}", describe_flags());
  return std::nullopt;
}

}  // namespace kf::cli

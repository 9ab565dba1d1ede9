#pragma once
// Running a credential plugin as client-go does: a child process with this process's
// environment plus the configured variables, standard input from /dev/null (never interactive),
// standard error passed through (a plugin's prompts and warnings reach the user or the log), and
// standard output captured.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"

namespace kf {

struct PluginCommand {
  std::string command;  // looked up in PATH unless it contains '/'
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // set on top of this process's
};

struct PluginExit {
  int exit_code = 0;  // meaningful when signal == 0
  int signal = 0;     // the signal that ended it, 0 when it exited
  std::string output;
};

class PluginRunner {
 public:
  virtual ~PluginRunner() = default;
  // Runs the command to its end. Fails with kNotFound when the executable does not exist, and
  // kBadConfig when it cannot be started (not executable, not a program) or printed more than a
  // credential can take.
  virtual Result<PluginExit> run(const PluginCommand& command) = 0;
};
using PluginRunnerPtr = std::shared_ptr<PluginRunner>;

// The runner that starts real processes.
PluginRunnerPtr processPluginRunner();

}  // namespace kf

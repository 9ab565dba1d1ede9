#pragma once
// A child process of a built binary (the controller manager, kubefedctl) for end-to-end tests:
// its stdout and stderr go to a log file the test can wait on; it is killed if still running
// when the object is destroyed, so a failing test never leaves it behind.

#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kf::integration {

// <build dir>/<relative>, e.g. builtBinary("cmd/controller-manager/controller-manager").
std::string builtBinary(const std::string& relative);

class ChildProcess {
 public:
  // Starts `binary` with `args`; `env` entries are added to the environment.
  ChildProcess(const std::string& binary, const std::vector<std::string>& args,
               const std::map<std::string, std::string>& env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool started() const { return pid_ > 0; }
  // Everything the process wrote so far.
  std::string log() const;
  // Waits until the log contains `text` (or the process exited); whether it does.
  bool waitForLog(const std::string& text,
                  std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  // Sends `signal` (SIGTERM, SIGKILL, ...), unless the process is known to have exited.
  void signal(int signal) const;
  // Waits for the process to exit; its exit code, or nullopt on timeout (or if it was killed
  // by a signal: then -signal).
  std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  bool running();

 private:
  pid_t pid_ = -1;
  std::string log_path_;
  std::optional<int> exit_code_;
};

// The port a controller-manager process logged for an endpoint it serves
// ("Serving /metrics on ... (port N)"); 0 when it has not logged one.
int servedPort(const ChildProcess& process, const std::string& what);

// The body of GET http://127.0.0.1:<port><path>, or the error's description.
std::string httpGet(int port, const std::string& path);

}  // namespace kf::integration

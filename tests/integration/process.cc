#include "tests/integration/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "federation/client/rest_client.h"
#include "tests/integration/local_clusters.h"

namespace kf::integration {
namespace fs = std::filesystem;

std::string builtBinary(const std::string& relative) {
  // <build>/tests/<tier>/<test binary>
  return (fs::read_symlink("/proc/self/exe").parent_path().parent_path().parent_path() / relative)
      .string();
}

ChildProcess::ChildProcess(const std::string& binary, const std::vector<std::string>& args,
                           const std::map<std::string, std::string>& env) {
  static int counter = 0;
  log_path_ = (fs::temp_directory_path() / ("kf-child-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(++counter) + ".log"))
                  .string();
  std::vector<std::string> argv_storage{binary};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  pid_ = ::fork();
  if (pid_ == 0) {
    int fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
    // The test binary may have blocked signals in its threads; the child starts clean.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (const auto& [key, value] : env) ::setenv(key.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    for (auto& arg : argv_storage) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
}

ChildProcess::~ChildProcess() {
  if (running()) {
    signal(SIGKILL);
    wait(std::chrono::seconds(10));
  }
  std::error_code ignored;
  fs::remove(log_path_, ignored);
}

std::string ChildProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool ChildProcess::waitForLog(const std::string& text, std::chrono::milliseconds timeout) const {
  return eventually([&] { return log().find(text) != std::string::npos; }, timeout);
}

void ChildProcess::signal(int signal) const {
  // Once reaped, the process id may already belong to another process.
  if (pid_ > 0 && !exit_code_) ::kill(pid_, signal);
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  if (exit_code_) return exit_code_;
  if (pid_ <= 0) return std::nullopt;
  eventually(
      [&] {
        int status = 0;
        pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
          exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
        }
        return exit_code_.has_value();
      },
      timeout);
  return exit_code_;
}

bool ChildProcess::running() {
  if (pid_ <= 0 || exit_code_) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) {
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return false;
  }
  return true;
}

int servedPort(const ChildProcess& process, const std::string& what) {
  std::smatch match;
  const std::string log = process.log();
  const std::regex pattern("Serving " + what + " on \\S+ \\(port ([0-9]+)\\)");
  return std::regex_search(log, match, pattern) ? std::stoi(match[1].str()) : 0;
}

std::string httpGet(int port, const std::string& path) {
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  auto client = RestClient::create(config, realClock());
  if (!client) return client.error().describe();
  auto response = client.value()->send({.path = path});
  return response ? response.value().body : response.error().describe();
}

}  // namespace kf::integration

#include "federation/client/plugin_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

extern char** environ;  // NOLINT: POSIX declares it nowhere else

namespace kf {
namespace {

// A credential is a few kilobytes; more is a plugin printing something else.
constexpr std::size_t kMaxPluginOutput = 1U << 20;

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// "NAME=value" strings: this process's environment with `overrides` replacing or adding names.
std::vector<std::string> environmentWith(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> set_here;
  for (const auto& [name, value] : overrides) set_here[name] = value;
  std::vector<std::string> out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (!set_here.contains(text.substr(0, text.find('=')))) out.push_back(text);
  }
  for (const auto& [name, value] : set_here) out.push_back(name + "=" + value);
  return out;
}

std::vector<char*> pointersTo(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& text : strings) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

ApiError startError(const PluginCommand& command, int error) {
  if (error == ENOENT) {
    return makeError(Reason::kNotFound, "executable " + command.command + " not found");
  }
  return makeError(Reason::kBadConfig,
                   "cannot run " + command.command + ": " + std::strerror(error));
}

// Reads the child's standard output to its end (or until it grew too big).
Result<std::string> readAll(int fd) {
  std::string output;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n == 0) return output;
    if (n < 0) {
      if (errno == EINTR) continue;
      return makeError(Reason::kBadConfig,
                       std::string("reading its output: ") + std::strerror(errno));
    }
    output.append(buffer, static_cast<std::size_t>(n));
    if (output.size() > kMaxPluginOutput) {
      return makeError(Reason::kBadConfig, "its output exceeds 1 MiB");
    }
  }
}

PluginExit exitOf(int status) {
  PluginExit exit;
  if (WIFSIGNALED(status)) {
    exit.signal = WTERMSIG(status);
  } else {
    exit.exit_code = WEXITSTATUS(status);
  }
  return exit;
}

class ProcessPluginRunner final : public PluginRunner {
 public:
  Result<PluginExit> run(const PluginCommand& command) override {
    int pipe_fds[2];
    // Close-on-exec, so that processes other threads start meanwhile do not keep the pipe open.
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return startError(command, errno);
    FileDescriptor read_end(pipe_fds[0]);
    FileDescriptor write_end(pipe_fds[1]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDOUT_FILENO);

    std::vector<std::string> argv_strings = {command.command};
    argv_strings.insert(argv_strings.end(), command.args.begin(), command.args.end());
    std::vector<std::string> env_strings = environmentWith(command.env);
    std::vector<char*> argv = pointersTo(argv_strings);
    std::vector<char*> envp = pointersTo(env_strings);
    pid_t pid = 0;
    // posix_spawnp looks the name up in this process's PATH, as client-go does.
    const int spawned = command.command.find('/') == std::string::npos
                            ? ::posix_spawnp(&pid, command.command.c_str(), &actions, nullptr,
                                             argv.data(), envp.data())
                            : ::posix_spawn(&pid, command.command.c_str(), &actions, nullptr,
                                            argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return startError(command, spawned);
    write_end.reset();  // the child holds the only write end: its exit ends the output

    auto output = readAll(read_end.get());
    read_end.reset();
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!output) return output.error();
    PluginExit exit = exitOf(status);
    exit.output = std::move(output).value();
    return exit;
  }
};

}  // namespace

PluginRunnerPtr processPluginRunner() { return std::make_shared<ProcessPluginRunner>(); }

}  // namespace kf

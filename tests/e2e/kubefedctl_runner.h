#pragma once
// Runs the built kubefedctl binary as a process, with separate stdout and stderr, optional
// standard input and extra environment, for the end-to-end tests of its commands.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"

namespace kf::integration {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shellQuoted(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string kubefedctlBinary() { return builtBinary("cmd/kubefedctl/kubefedctl"); }

// Runs `command` (a shell command line) with `input` on its standard input.
inline RunResult runShell(const std::string& command, const std::string& input = "",
                          const std::map<std::string, std::string>& env = {}) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("kfctl-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
  fs::create_directories(dir);
  std::ofstream(dir / "in") << input;
  std::string line;
  for (const auto& [key, value] : env) line += key + "=" + shellQuoted(value) + " ";
  line += "sh -c " + shellQuoted(command) + " <" + shellQuoted((dir / "in").string()) + " >" +
          shellQuoted((dir / "out").string()) + " 2>" + shellQuoted((dir / "err").string());
  RunResult result;
  const int status = std::system(line.c_str());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readFile((dir / "out").string());
  result.err = readFile((dir / "err").string());
  fs::remove_all(dir);
  return result;
}

// kubefedctl ARGS against the local clusters' kubeconfig and host context.
inline RunResult runKubefedctl(const std::vector<std::string>& args,
                               const std::string& input = "") {
  std::string command = shellQuoted(kubefedctlBinary());
  for (const auto& arg : args) command += " " + shellQuoted(arg);
  command += " --kubeconfig " + shellQuoted(LocalClusters::get().kubeconfigPath()) +
             " --host-cluster-context host";
  return runShell(command, input);
}

inline std::string describe(const RunResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

}  // namespace kf::integration

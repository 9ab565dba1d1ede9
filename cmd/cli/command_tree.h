#pragma once
// A CLI as a tree of commands, as cobra builds one: groups (the program itself,
// `orphaning-deletion`) list their children; leaves parse their flags and run. Every command also
// takes klog's flags (persistent, shown under "Global Flags:"), anywhere on the command line.
// The same tree answers shell completion.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cmd/cli/command.h"
#include "cmd/cli/flags.h"

namespace kf::cli {

// Words a shell may complete the current word with.
struct Completion {
  std::vector<std::string> words;
  bool files = false;  // complete file names instead
};

class Command {
 public:
  virtual ~Command() = default;
  // Binds the command's own flags to its members.
  virtual void addFlags(FlagSet& flags) = 0;
  // Runs once the flags are parsed and logging is set up; returns the exit code.
  virtual int run(const std::vector<std::string>& args, Streams streams) = 0;
  // Candidates for the positional argument that follows `args`; flags are already parsed.
  virtual Completion completeArgument(const std::vector<std::string>& args) {
    (void)args;
    return {};
  }
  // Candidates for the value of `flag` (its long name).
  virtual Completion completeFlagValue(const std::string& flag) {
    (void)flag;
    return {};
  }
};

struct CommandSpec {
  std::string name;
  HelpText help;
  std::function<std::unique_ptr<Command>()> make;  // a leaf; null for a group
  std::vector<CommandSpec> children;
  bool hidden = false;  // not listed in help or completion (__complete)
};

// Finds the command `args` name and runs it.
int execute(const CommandSpec& root, const std::vector<std::string>& args, Streams streams);

// The completion of the last of `words` (the words after the program name; the last one may be
// empty), filtered by what it starts with.
Completion complete(const CommandSpec& root, const std::vector<std::string>& words);

}  // namespace kf::cli

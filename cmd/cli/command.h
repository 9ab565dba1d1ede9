#pragma once
// The conventions every binary follows: exit codes, output streams, help in cobra's layout with
// examples indented as kubectl prints them, and "Error: ..." on failure.

#include <iostream>
#include <string>
#include <vector>

#include "cmd/cli/flags.h"

namespace kf::cli {

// Exit codes, as KubeFed's binaries have them.
inline constexpr int kExitOk = 0;
// Bad flags or arguments found while parsing (cobra).
inline constexpr int kExitUsage = 1;
// A command that failed (KubeFed's klog.Fatalf("Error: %v")).
inline constexpr int kExitFailure = 255;

struct Streams {
  std::ostream& out = std::cout;
  std::ostream& err = std::cerr;
  std::istream& in = std::cin;  // `-f -` reads objects from here
};

// The texts of `PROGRAM COMMAND --help`.
struct HelpText {
  std::string use;  // after the program name: "enable (NAME | -f FILENAME)"
  std::string short_text;
  std::string long_text;
  std::string examples;  // each line indented by two spaces, comments as "# ..."
};

// Help of a command that runs (not a group of commands): description, usage line, examples,
// flags, global flags.
void printHelp(const std::string& program, const HelpText& help, const FlagSet& flags,
               std::ostream& out);

// Parses args; on -h prints help and returns kExitOk, on bad flags prints the error and the usage
// to stderr and returns kExitUsage; otherwise returns -1 (go on).
int parseOrExit(const std::string& program, FlagSet& flags, const std::vector<std::string>& args,
                const HelpText& help, Streams streams);

// Prints "Error: <message>" and returns kExitFailure.
int fail(const std::string& message, Streams streams);

}  // namespace kf::cli

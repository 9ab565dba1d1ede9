#include "cmd/cli/command.h"

namespace kf::cli {

void printHelp(const std::string& program, const HelpText& help, const FlagSet& flags,
               std::ostream& out) {
  out << (help.long_text.empty() ? help.short_text : help.long_text) << "\n\n";
  out << "Usage:\n  " << program << (help.use.empty() ? "" : " " + help.use) << " [flags]\n\n";
  if (!help.examples.empty()) out << "Examples:\n" << help.examples << "\n\n";
  out << "Flags:\n" << flags.usage();
  if (std::string global = flags.globalUsage(); !global.empty()) {
    out << "\nGlobal Flags:\n" << global;
  }
}

int parseOrExit(const std::string& program, FlagSet& flags, const std::vector<std::string>& args,
                const HelpText& help, Streams streams) {
  if (!flags.parse(args, streams.err)) {
    streams.err << "Error: " << flags.error() << "\n";
    printHelp(program, help, flags, streams.err);
    return kExitUsage;
  }
  if (flags.helpRequested()) {
    printHelp(program, help, flags, streams.out);
    return kExitOk;
  }
  return -1;
}

int fail(const std::string& message, Streams streams) {
  streams.err << "Error: " << message << "\n";
  return kExitFailure;
}

}  // namespace kf::cli

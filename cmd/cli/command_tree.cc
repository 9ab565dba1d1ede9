#include "cmd/cli/command_tree.h"

#include <algorithm>
#include <sstream>

#include "cmd/cli/logging.h"

namespace kf::cli {
namespace {

// Where the command names on a command line lead.
struct Located {
  std::vector<const CommandSpec*> path;  // root first
  std::vector<std::string> rest;         // every other word, flags included
  std::string unknown;                   // a word that names no child of a group
};

const CommandSpec* childNamed(const CommandSpec& group, const std::string& name) {
  for (const auto& child : group.children) {
    if (child.name == name) return &child;
  }
  return nullptr;
}

bool isFlagWord(const std::string& word) { return word.size() > 1 && word[0] == '-'; }

// Command names are the first words that are not flags; klog's flags may stand before them.
Located locate(const CommandSpec& root, const std::vector<std::string>& args) {
  LogOptions scratch;
  FlagSet persistent;
  scratch.addTo(persistent);
  Located out;
  out.path.push_back(&root);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool in_group = !out.path.back()->make && out.unknown.empty();
    if (!in_group || arg == "--") {
      out.rest.push_back(arg);
      continue;
    }
    if (isFlagWord(arg)) {
      out.rest.push_back(arg);
      auto flag = persistent.flagFor(arg);
      if (flag && flag->takes_value && arg.find('=') == std::string::npos && i + 1 < args.size()) {
        out.rest.push_back(args[++i]);
      }
      continue;
    }
    if (const CommandSpec* child = childNamed(*out.path.back(), arg); child != nullptr) {
      out.path.push_back(child);
    } else {
      out.unknown = arg;
      out.rest.push_back(arg);
    }
  }
  return out;
}

std::string commandPath(const std::vector<const CommandSpec*>& path) {
  std::string out;
  for (const auto* spec : path) out += (out.empty() ? "" : " ") + spec->name;
  return out;
}

void printGroupHelp(const std::vector<const CommandSpec*>& path, std::ostream& out) {
  const CommandSpec& group = *path.back();
  const std::string name = commandPath(path);
  const bool is_root = path.size() == 1;
  out << (group.help.long_text.empty() ? group.help.short_text : group.help.long_text) << "\n\n"
      << "Usage:\n  " << name << " [flags]\n  " << name << " [command]\n\n"
      << "Available Commands:\n";
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& child : group.children) {
    if (!child.hidden) rows.emplace_back(child.name, child.help.short_text);
  }
  if (is_root) rows.emplace_back("help", "Help about any command");
  std::sort(rows.begin(), rows.end());
  size_t width = 11;  // cobra's minimum name padding
  for (const auto& row : rows) width = std::max(width, row.first.size());
  for (const auto& [child, summary] : rows) {
    out << "  " << child << std::string(width - child.size() + 1, ' ') << summary << "\n";
  }
  // klog's flags belong to the root; its children list them as global.
  LogOptions log;
  FlagSet flags;
  if (!is_root) flags.beginGlobalFlags();
  log.addTo(flags);
  flags.setCommandName(group.name);
  out << "\nFlags:\n" << flags.usage();
  if (!is_root) out << "\nGlobal Flags:\n" << flags.globalUsage();
  out << "\nUse \"" << name << " [command] --help\" for more information about a command.\n";
}

int runGroup(const Located& located, Streams streams) {
  LogOptions log;
  FlagSet flags;
  flags.beginGlobalFlags();
  log.addTo(flags);
  const std::string name = commandPath(located.path);
  if (!located.unknown.empty()) {
    streams.err << "Error: unknown command \"" << located.unknown << "\" for \"" << name
                << "\"\nRun '" << name << " --help' for usage.\n";
    return kExitUsage;
  }
  if (!flags.parse(located.rest, streams.err)) {
    streams.err << "Error: " << flags.error() << "\n";
    printGroupHelp(located.path, streams.err);
    return kExitUsage;
  }
  printGroupHelp(located.path, streams.out);
  return kExitOk;
}

int runLeaf(const Located& located, Streams streams) {
  const CommandSpec& spec = *located.path.back();
  std::unique_ptr<Command> command = spec.make();
  LogOptions log;
  FlagSet flags;
  flags.setCommandName(spec.name);
  command->addFlags(flags);
  flags.beginGlobalFlags();
  log.addTo(flags);
  // The usage line names the groups between the program and the command.
  HelpText help = spec.help;
  for (size_t i = located.path.size() - 1; i-- > 1;) {
    help.use = located.path[i]->name + " " + help.use;
  }
  const std::string program = located.path.front()->name;
  if (int code = parseOrExit(program, flags, located.rest, help, streams); code >= 0) return code;
  auto settings = logSettings(log);
  if (!settings) {
    streams.err << "Error: " << settings.error().message << "\n";
    printHelp(program, help, flags, streams.err);
    return kExitUsage;
  }
  if (auto ready = setUpLogging(settings.value()); !ready) {
    return fail(ready.error().message, streams);
  }
  return command->run(flags.positional(), streams);
}

std::vector<std::string> startingWith(const std::vector<std::string>& words,
                                      const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& word : words) {
    if (word.rfind(prefix, 0) == 0) out.push_back(word);
  }
  return out;
}

Completion filtered(Completion completion, const std::string& prefix) {
  if (!completion.files) completion.words = startingWith(completion.words, prefix);
  return completion;
}

std::vector<std::string> flagWords(const FlagSet& flags) {
  std::vector<std::string> out;
  for (const auto& flag : flags.visibleFlags()) out.push_back("--" + flag.name);
  out.push_back("--help");
  return out;
}

Completion completeGroup(const CommandSpec& group, bool is_root, const std::string& current) {
  Completion out;
  if (isFlagWord(current)) {
    LogOptions log;
    FlagSet flags;
    log.addTo(flags);
    out.words = flagWords(flags);
  } else {
    for (const auto& child : group.children) {
      if (!child.hidden) out.words.push_back(child.name);
    }
    if (is_root) out.words.push_back("help");
  }
  return filtered(out, current);
}

// The flag whose value the current word is: "--flag=partial", or a value flag just before it.
std::optional<FlagInfo> flagAwaitingValue(const FlagSet& flags,
                                          const std::vector<std::string>& before,
                                          const std::string& current) {
  if (current.rfind("--", 0) == 0 && current.find('=') != std::string::npos) {
    auto flag = flags.flagFor(current);
    if (flag && flag->takes_value) return flag;
    return std::nullopt;
  }
  if (before.empty() || !isFlagWord(before.back())) return std::nullopt;
  if (before.back().find('=') != std::string::npos) return std::nullopt;
  auto flag = flags.flagFor(before.back());
  if (flag && flag->takes_value) return flag;
  return std::nullopt;
}

Completion completeLeaf(const CommandSpec& spec, std::vector<std::string> before,
                        const std::string& current) {
  std::unique_ptr<Command> command = spec.make();
  LogOptions log;
  FlagSet flags;
  command->addFlags(flags);
  flags.beginGlobalFlags();
  log.addTo(flags);
  std::ostringstream ignored;
  if (auto flag = flagAwaitingValue(flags, before, current); flag) {
    const bool inline_value = current.find('=') != std::string::npos;
    if (!inline_value) before.pop_back();
    (void)flags.parse(before, ignored);
    Completion values = command->completeFlagValue(flag->name);
    if (inline_value && !values.files) {
      const std::string prefix = current.substr(0, current.find('=') + 1);
      for (auto& word : values.words) word = prefix + word;
    }
    return filtered(values, current);
  }
  if (isFlagWord(current)) return filtered({flagWords(flags), false}, current);
  (void)flags.parse(before, ignored);
  return filtered(command->completeArgument(flags.positional()), current);
}

}  // namespace

int execute(const CommandSpec& root, const std::vector<std::string>& args, Streams streams) {
  // `PROGRAM help [command...]` is `PROGRAM command... --help`.
  if (!args.empty() && args.front() == "help") {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    rest.push_back("--help");
    return execute(root, rest, streams);
  }
  const Located located = locate(root, args);
  if (!located.path.back()->make) return runGroup(located, streams);
  return runLeaf(located, streams);
}

Completion complete(const CommandSpec& root, const std::vector<std::string>& words) {
  const std::string current = words.empty() ? "" : words.back();
  const std::vector<std::string> before =
      words.empty() ? words : std::vector<std::string>(words.begin(), words.end() - 1);
  const Located located = locate(root, before);
  if (!located.unknown.empty()) return {};
  const CommandSpec& spec = *located.path.back();
  if (!spec.make) return completeGroup(spec, located.path.size() == 1, current);
  return completeLeaf(spec, located.rest, current);
}

}  // namespace kf::cli

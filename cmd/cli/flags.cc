#include "cmd/cli/flags.h"

#include <algorithm>
#include <sstream>

namespace kf::cli {
namespace {

std::string quotedList(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i == 0 ? "" : ",") + values[i];
  return out + "]";
}

std::vector<std::string> splitCommas(const std::string& value) {
  std::vector<std::string> out;
  if (value.empty()) return out;
  std::stringstream in(value);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  if (value.back() == ',') out.emplace_back();
  return out;
}

}  // namespace

std::string flagDisplayName(const FlagInfo& flag) {
  return flag.shorthand ? std::string("-") + flag.shorthand + ", --" + flag.name : "--" + flag.name;
}

void FlagSet::addString(const std::string& name, char shorthand, std::string* target,
                        const std::string& usage, const std::string& type_name) {
  Flag flag{name, shorthand, target, nullptr, nullptr, usage, type_name};
  // pflag leaves zero values out and quotes only string defaults.
  const bool zero = target->empty() || (type_name != "string" && *target == "0");
  if (!zero) flag.default_text = type_name == "string" ? "\"" + *target + "\"" : *target;
  flag.global = adding_global_;
  flags_.push_back(std::move(flag));
}

void FlagSet::addBool(const std::string& name, char shorthand, bool* target,
                      const std::string& usage) {
  Flag flag{name, shorthand, nullptr, target, nullptr, usage, ""};
  flag.default_text = *target ? "true" : "";
  flag.global = adding_global_;
  flags_.push_back(std::move(flag));
}

void FlagSet::addStringList(const std::string& name, char shorthand,
                            std::vector<std::string>* target, const std::string& usage) {
  Flag flag{name, shorthand, nullptr, nullptr, target, usage, "strings"};
  flag.default_text = quotedList(*target);
  flag.global = adding_global_;
  flags_.push_back(std::move(flag));
}

void FlagSet::hide(const std::string& name) {
  if (Flag* flag = find(name); flag != nullptr) flag->hidden = true;
}

FlagSet::Flag* FlagSet::find(const std::string& name) {
  auto it =
      std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) { return f.name == name; });
  return it == flags_.end() ? nullptr : &*it;
}

const FlagSet::Flag* FlagSet::findConst(const std::string& name) const {
  auto it =
      std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) { return f.name == name; });
  return it == flags_.end() ? nullptr : &*it;
}

FlagSet::Flag* FlagSet::findShort(char shorthand) {
  auto it = std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) {
    return f.shorthand != 0 && f.shorthand == shorthand;
  });
  return it == flags_.end() ? nullptr : &*it;
}

bool FlagSet::changed(const std::string& name) const {
  const Flag* flag = findConst(name);
  return flag != nullptr && flag->changed;
}

bool FlagSet::setBool(Flag& flag, const std::string& value) {
  if (value == "true" || value == "1" || value == "t" || value == "T" || value == "TRUE" ||
      value == "True") {
    *flag.boolean = true;
  } else if (value == "false" || value == "0" || value == "f" || value == "F" || value == "FALSE" ||
             value == "False") {
    *flag.boolean = false;
  } else {
    error_ = "invalid argument \"" + value + "\" for \"" +
             flagDisplayName({flag.name, flag.shorthand, false}) +
             "\" flag: strconv.ParseBool: parsing \"" + value + "\": invalid syntax";
    return false;
  }
  return true;
}

bool FlagSet::set(Flag& flag, const std::string& value) {
  // pflag: the first use of a list flag replaces its default, later ones append.
  if (flag.list != nullptr) {
    if (!flag.changed) flag.list->clear();
    for (auto& item : splitCommas(value)) flag.list->push_back(std::move(item));
    flag.changed = true;
    return true;
  }
  flag.changed = true;
  if (flag.text != nullptr) {
    *flag.text = value;
    return true;
  }
  return setBool(flag, value);
}

bool FlagSet::parseLong(const std::vector<std::string>& args, size_t& i, std::ostream& warnings) {
  std::string body = args[i].substr(2);
  std::optional<std::string> value;
  if (auto eq = body.find('='); eq != std::string::npos) {
    value = body.substr(eq + 1);
    body = body.substr(0, eq);
  }
  if (body.find('_') != std::string::npos) {
    std::string dashed = body;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    warnings << "W: using an underscore in a flag name is not supported. " << body
             << " has been converted to " << dashed << ".\n";
    body = dashed;
  }
  if (body == "help") {
    help_ = true;
    return true;
  }
  Flag* flag = find(body);
  if (flag == nullptr) {
    error_ = "unknown flag: --" + body;
    return false;
  }
  if (!value) {
    if (flag->boolean != nullptr) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      error_ = "flag needs an argument: --" + body;
      return false;
    }
  }
  return set(*flag, *value);
}

bool FlagSet::parseShort(const std::vector<std::string>& args, size_t& i) {
  const std::string& arg = args[i];
  if (arg[1] == 'h') {
    help_ = true;
    return true;
  }
  Flag* flag = findShort(arg[1]);
  if (flag == nullptr) {
    error_ = std::string("unknown shorthand flag: '") + arg[1] + "' in " + arg;
    return false;
  }
  std::string rest = arg.substr(2);
  if (!rest.empty() && rest.front() == '=') rest = rest.substr(1);
  if (flag->boolean != nullptr) return set(*flag, rest.empty() ? "true" : rest);
  if (!rest.empty()) return set(*flag, rest);
  if (i + 1 >= args.size()) {
    error_ = std::string("flag needs an argument: '") + arg[1] + "' in " + arg;
    return false;
  }
  return set(*flag, args[++i]);
}

bool FlagSet::parse(const std::vector<std::string>& args, std::ostream& warnings) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional_.insert(positional_.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      return true;
    }
    bool ok = true;
    if (arg.rfind("--", 0) == 0) {
      ok = parseLong(args, i, warnings);
    } else if (arg.size() > 1 && arg[0] == '-') {
      ok = parseShort(args, i);
    } else {
      positional_.push_back(arg);
    }
    if (!ok) return false;
  }
  return true;
}

std::optional<FlagInfo> FlagSet::flagFor(const std::string& word) const {
  const Flag* flag = nullptr;
  if (word.rfind("--", 0) == 0) {
    std::string name = word.substr(
        2, word.find('=') == std::string::npos ? std::string::npos : word.find('=') - 2);
    std::replace(name.begin(), name.end(), '_', '-');
    flag = findConst(name);
  } else if (word.size() == 2 && word[0] == '-') {
    auto it = std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) {
      return f.shorthand != 0 && f.shorthand == word[1];
    });
    flag = it == flags_.end() ? nullptr : &*it;
  }
  if (flag == nullptr) return std::nullopt;
  return FlagInfo{flag->name, flag->shorthand, flag->boolean == nullptr};
}

std::vector<FlagInfo> FlagSet::visibleFlags() const {
  std::vector<FlagInfo> out;
  for (const auto& flag : flags_) {
    if (!flag.hidden) out.push_back({flag.name, flag.shorthand, flag.boolean == nullptr});
  }
  return out;
}

std::string FlagSet::table(bool global, bool with_help) const {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 0;
  auto add = [&](std::string left, std::string right) {
    width = std::max(width, left.size());
    rows.emplace_back(std::move(left), std::move(right));
  };
  for (const auto& flag : flags_) {
    if (flag.hidden || flag.global != global) continue;
    std::string left = flag.shorthand ? std::string("  -") + flag.shorthand + ", --" + flag.name
                                      : "      --" + flag.name;
    if (!flag.type_name.empty()) left += " " + flag.type_name;
    std::string right = flag.usage;
    if (!flag.default_text.empty() && flag.default_text != "[]") {
      right += " (default " + flag.default_text + ")";
    }
    add(std::move(left), std::move(right));
  }
  if (with_help) add("  -h, --help", "help for " + command_name_);
  std::ostringstream out;
  for (const auto& [left, right] : rows) {
    out << left << std::string(width - left.size() + 3, ' ') << right << "\n";
  }
  return out.str();
}

std::string FlagSet::usage() const { return table(false, true); }

std::string FlagSet::globalUsage() const { return table(true, false); }

}  // namespace kf::cli

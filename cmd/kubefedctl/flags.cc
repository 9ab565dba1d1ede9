#include "cmd/kubefedctl/flags.h"

#include <algorithm>
#include <sstream>

namespace kf::kubefedctl {

void FlagSet::addString(const std::string& name, char shorthand, std::string* target,
                        const std::string& usage) {
  flags_.push_back({name, shorthand, target, nullptr, usage, *target, false});
}

void FlagSet::addBool(const std::string& name, char shorthand, bool* target,
                      const std::string& usage) {
  flags_.push_back({name, shorthand, nullptr, target, usage, *target ? "true" : "", false});
}

FlagSet::Flag* FlagSet::find(const std::string& name) {
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
  return std::any_of(flags_.begin(), flags_.end(),
                     [&](const Flag& f) { return f.name == name && f.changed; });
}

bool FlagSet::set(Flag& flag, const std::string& value) {
  flag.changed = true;
  if (flag.text != nullptr) {
    *flag.text = value;
    return true;
  }
  if (value == "true" || value == "1" || value == "t" || value == "T" || value == "TRUE" ||
      value == "True") {
    *flag.boolean = true;
  } else if (value == "false" || value == "0" || value == "f" || value == "F" || value == "FALSE" ||
             value == "False") {
    *flag.boolean = false;
  } else {
    error_ = "invalid argument \"" + value + "\" for \"--" + flag.name +
             "\" flag: strconv.ParseBool: parsing \"" + value + "\": invalid syntax";
    return false;
  }
  return true;
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

std::string FlagSet::usage() const {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 0;
  for (const auto& flag : flags_) {
    std::string left = flag.shorthand ? std::string("  -") + flag.shorthand + ", --" + flag.name
                                      : "      --" + flag.name;
    if (flag.text != nullptr) left += " string";
    std::string right = flag.usage;
    if (!flag.default_text.empty()) {
      right += flag.text != nullptr ? " (default \"" + flag.default_text + "\")"
                                    : " (default " + flag.default_text + ")";
    }
    width = std::max(width, left.size());
    rows.emplace_back(left, right);
  }
  rows.emplace_back("  -h, --help", "help for this command");
  width = std::max(width, rows.back().first.size());
  std::ostringstream out;
  for (const auto& [left, right] : rows) {
    out << left << std::string(width - left.size() + 3, ' ') << right << "\n";
  }
  return out.str();
}

}  // namespace kf::kubefedctl

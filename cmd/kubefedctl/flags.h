#pragma once
// A small pflag-like parser: --name=value, --name value, -n value, -nvalue, boolean --name and
// --name=true|false, "--" ending flags. '_' in a flag name is accepted as '-' with a warning, as
// kubefedctl does.

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kf::kubefedctl {

class FlagSet {
 public:
  void addString(const std::string& name, char shorthand, std::string* target,
                 const std::string& usage);
  void addBool(const std::string& name, char shorthand, bool* target, const std::string& usage);

  // Fills the targets and returns the positional arguments; an error message on bad input.
  // -h/--help sets helpRequested() instead of failing.
  bool parse(const std::vector<std::string>& args, std::ostream& warnings);
  const std::vector<std::string>& positional() const { return positional_; }
  const std::string& error() const { return error_; }
  bool helpRequested() const { return help_; }
  bool changed(const std::string& name) const;

  // The "Flags:" block of help text, aligned as cobra prints it.
  std::string usage() const;

 private:
  struct Flag {
    std::string name;
    char shorthand = 0;
    std::string* text = nullptr;
    bool* boolean = nullptr;
    std::string usage;
    std::string default_text;
    bool changed = false;
  };

  Flag* find(const std::string& name);
  Flag* findShort(char shorthand);
  bool set(Flag& flag, const std::string& value);
  bool parseLong(const std::vector<std::string>& args, size_t& i, std::ostream& warnings);
  bool parseShort(const std::vector<std::string>& args, size_t& i);

  std::vector<Flag> flags_;
  std::vector<std::string> positional_;
  std::string error_;
  bool help_ = false;
};

}  // namespace kf::kubefedctl

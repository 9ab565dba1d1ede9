#pragma once
// A small pflag-like parser shared by every binary: --name=value, --name value, -n value,
// -nvalue, boolean --name and --name=true|false, "--" ending flags. '_' in a flag name is accepted
// as '-' with a warning, as KubeFed's binaries do.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kf::cli {

// What help and shell completion need to know about one flag.
struct FlagInfo {
  std::string name;
  char shorthand = 0;
  bool takes_value = false;
};

class FlagSet {
 public:
  // A string flag; `type_name` is what help prints after the name ("string", "Level", ...).
  void addString(const std::string& name, char shorthand, std::string* target,
                 const std::string& usage, const std::string& type_name = "string");
  void addBool(const std::string& name, char shorthand, bool* target, const std::string& usage);
  // pflag's StringSlice: comma-separated values; repeating the flag appends.
  void addStringList(const std::string& name, char shorthand, std::vector<std::string>* target,
                     const std::string& usage);

  // Flags added after this call are listed under "Global Flags:" in help, as cobra lists the
  // persistent flags of a parent command.
  void beginGlobalFlags() { adding_global_ = true; }
  // Still accepted, but left out of help and completion.
  void hide(const std::string& name);
  // The command named in the "-h, --help   help for NAME" line.
  void setCommandName(const std::string& name) { command_name_ = name; }

  // Fills the targets and collects the positional arguments; false with error() on bad input.
  // -h/--help sets helpRequested() instead of failing.
  bool parse(const std::vector<std::string>& args, std::ostream& warnings);
  const std::vector<std::string>& positional() const { return positional_; }
  const std::string& error() const { return error_; }
  bool helpRequested() const { return help_; }
  bool changed(const std::string& name) const;

  // The flag a command-line word names ("--name", "--name=x", "-n"), if any.
  std::optional<FlagInfo> flagFor(const std::string& word) const;
  // Every flag that help shows, in the order they were added.
  std::vector<FlagInfo> visibleFlags() const;

  // The "Flags:" block of help text (local flags), aligned as cobra prints it.
  std::string usage() const;
  // The "Global Flags:" block; empty when there are none.
  std::string globalUsage() const;

 private:
  struct Flag {
    std::string name;
    char shorthand = 0;
    std::string* text = nullptr;
    bool* boolean = nullptr;
    std::vector<std::string>* list = nullptr;
    std::string usage;
    std::string type_name;
    std::string default_text;
    bool global = false;
    bool hidden = false;
    bool changed = false;
  };

  Flag* find(const std::string& name);
  Flag* findShort(char shorthand);
  const Flag* findConst(const std::string& name) const;
  bool set(Flag& flag, const std::string& value);
  bool setBool(Flag& flag, const std::string& value);
  bool parseLong(const std::vector<std::string>& args, size_t& i, std::ostream& warnings);
  bool parseShort(const std::vector<std::string>& args, size_t& i);
  std::string table(bool global, bool with_help) const;

  std::vector<Flag> flags_;
  std::vector<std::string> positional_;
  std::string error_;
  bool help_ = false;
  bool adding_global_ = false;
  std::string command_name_ = "this command";
};

// pflag's spelling of a flag in messages: "-o, --output" or "--kubeconfig".
std::string flagDisplayName(const FlagInfo& flag);

}  // namespace kf::cli

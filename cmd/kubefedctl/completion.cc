#include "cmd/kubefedctl/completion.h"

namespace kf::kubefedctl {
namespace {

const HelpText kCompletionHelp{
    "completion SHELL", "Output shell completion code for the specified shell (bash, zsh or fish)",
    "Output shell completion code for the specified shell (bash, zsh or fish).\n"
    "The shell code must be evaluated to provide interactive completion of kubefedctl commands,\n"
    "flags, kubeconfig contexts and the types and objects of the host cluster. This can be done\n"
    "by sourcing it from the .bash_profile, .zshrc or fish configuration.",
    "  # Load the kubefedctl completion code for bash into the current shell\n"
    "  source <(kubefedctl completion bash)\n\n"
    "  # Load it in every new bash shell\n"
    "  echo 'source <(kubefedctl completion bash)' >> ~/.bashrc\n\n"
    "  # zsh, after compinit; or save the output as _kubefedctl in a directory of $fpath\n"
    "  source <(kubefedctl completion zsh)\n\n"
    "  # fish\n"
    "  kubefedctl completion fish | source"};

// Bash splits the current word at '=' and ':' (COMP_WORDBREAKS), so the words are taken from
// the command line itself and each reply drops what precedes the last break.
const char* kBashScript = R"(# bash completion for kubefedctl
# Load it with: source <(kubefedctl completion bash)

_kubefedctl() {
    local line="${COMP_LINE:0:COMP_POINT}"
    local -a words
    read -r -a words <<< "$line"
    if [[ -z "$line" || "$line" =~ [[:space:]]$ ]]; then
        words+=("")
    fi
    local cur="${words[${#words[@]}-1]}"
    local -a lines
    mapfile -t lines < <("${words[0]}" __complete "${words[@]:1}" 2>/dev/null)
    local count=${#lines[@]}
    (( count > 0 )) || return 0
    local directive="${lines[count-1]}"
    unset 'lines[count-1]'
    COMPREPLY=()
    if [[ "$directive" == ":files" ]]; then
        local value="$cur"
        [[ "$cur" == --*=* ]] && value="${cur#*=}"
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$value")
        return 0
    fi
    local prefix="${cur%"${cur##*[=:]}"}"
    local word
    for word in "${lines[@]}"; do
        COMPREPLY+=("${word#"$prefix"}")
    done
}

complete -F _kubefedctl kubefedctl
)";

const char* kZshScript = R"(#compdef kubefedctl
# zsh completion for kubefedctl
# Load it with: source <(kubefedctl completion zsh)   (after compinit)
# or save it as _kubefedctl in a directory of $fpath.

_kubefedctl() {
  local -a lines
  lines=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  (( ${#lines} )) || return 1
  local directive="${lines[-1]}"
  lines=("${(@)lines[1,-2]}")
  if [[ "$directive" == ":files" ]]; then
    _files
    return
  fi
  (( ${#lines} )) || return 1
  compadd -- "${(@)lines}"
}

if [[ "${funcstack[1]}" == "_kubefedctl" ]]; then
  _kubefedctl "$@"
else
  compdef _kubefedctl kubefedctl
fi
)";

const char* kFishScript = R"(# fish completion for kubefedctl
# Load it with: kubefedctl completion fish | source

function __kubefedctl_complete
    set -l tokens (commandline -opc)
    set -l program $tokens[1]
    set -e tokens[1]
    set -l current (commandline -ct)
    set -l lines ($program __complete $tokens "$current" 2>/dev/null)
    test (count $lines) -gt 0; or return
    set -l directive $lines[-1]
    set -e lines[-1]
    if test "$directive" = ":files"
        __fish_complete_path "$current"
        return
    end
    printf '%s\n' $lines
end

complete -c kubefedctl -f -a '(__kubefedctl_complete)'
)";

class CompletionCommand : public Command {
 public:
  void addFlags(FlagSet&) override {}

  int run(const std::vector<std::string>& args, Streams streams) override {
    if (args.empty()) return fail("Shell not specified.", streams);
    if (args.size() > 1) return fail("Too many arguments. Expected only the shell type.", streams);
    const std::string script = completionScript(args.front());
    if (script.empty()) return fail("Unsupported shell type \"" + args.front() + "\".", streams);
    streams.out << script;
    return kExitOk;
  }

  Completion completeArgument(const std::vector<std::string>& args) override {
    if (!args.empty()) return {};
    return {{"bash", "fish", "zsh"}, false};
  }
};

}  // namespace

CommandSpec completionCommand() {
  return {"completion", kCompletionHelp, [] { return std::make_unique<CompletionCommand>(); }, {}};
}

std::string completionScript(const std::string& shell) {
  if (shell == "bash") return kBashScript;
  if (shell == "zsh") return kZshScript;
  if (shell == "fish") return kFishScript;
  return "";
}

int printCompletions(const CommandSpec& root, const std::vector<std::string>& words,
                     Streams streams) {
  const Completion completion =
      cli::complete(root, words.empty() ? std::vector<std::string>{""} : words);
  for (const auto& word : completion.words) streams.out << word << "\n";
  streams.out << (completion.files ? ":files" : ":words") << "\n";
  return kExitOk;
}

}  // namespace kf::kubefedctl

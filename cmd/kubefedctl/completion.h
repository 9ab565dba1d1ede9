#pragma once
// `kubefedctl completion bash|zsh|fish` prints a script that makes the shell ask kubefedctl
// itself (the hidden `kubefedctl __complete WORDS...`) for the words that may follow: commands,
// flags, kubeconfig contexts, types from the host's FederatedTypeConfigs, objects.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec completionCommand();

// The script for `shell`; "" for a shell we have none for.
std::string completionScript(const std::string& shell);

// `kubefedctl __complete WORDS...`: one candidate per line, then ":files" (complete file names)
// or ":words". `words` are the words after the program name; the last is the one being
// completed and may be empty.
int printCompletions(const CommandSpec& root, const std::vector<std::string>& words,
                     Streams streams);

}  // namespace kf::kubefedctl

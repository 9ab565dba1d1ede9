#pragma once
// kubefedctl's commands speak the shared command-line library (cmd/cli); its names, here for
// every command of this folder.

#include "cmd/cli/command.h"
#include "cmd/cli/command_tree.h"
#include "cmd/cli/flags.h"
#include "cmd/cli/global_options.h"

namespace kf::kubefedctl {

using cli::cliClient;
using cli::Command;
using cli::CommandSpec;
using cli::Completion;
using cli::fail;
using cli::FlagSet;
using cli::GlobalOptions;
using cli::HelpText;
using cli::kDefaultKubefedNamespace;
using cli::kExitFailure;
using cli::kExitOk;
using cli::Streams;

}  // namespace kf::kubefedctl

// kubefedctl's completion without a cluster: the commands, their flags and fixed words, and the
// scripts for each shell.

#include "cmd/kubefedctl/completion.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/root.h"

namespace kf::kubefedctl {
namespace {

std::vector<std::string> complete(const std::vector<std::string>& words) {
  std::ostringstream out, err;
  EXPECT_EQ(runRoot(
                [&] {
                  std::vector<std::string> args{"__complete"};
                  args.insert(args.end(), words.begin(), words.end());
                  return args;
                }(),
                {out, err}),
            0);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(KubefedctlCompletionTest, CompletesCommandsAndSubcommands) {
  EXPECT_EQ(complete({"ena"}), (std::vector<std::string>{"enable", ":words"}));
  EXPECT_EQ(complete({"orphaning-deletion", ""}),
            (std::vector<std::string>{"enable", "disable", "status", ":words"}));
  EXPECT_EQ(complete({"completion", ""}),
            (std::vector<std::string>{"bash", "fish", "zsh", ":words"}));
  EXPECT_EQ(complete({"federate", "--enable"}),
            (std::vector<std::string>{"--enable-type", ":words"}));
  EXPECT_EQ(complete({"federate", "-o", ""}), (std::vector<std::string>{"yaml", ":words"}));
  EXPECT_EQ(complete({"federate", "-f", ""}), (std::vector<std::string>{":files"}));
  // Hidden flags are not offered.
  EXPECT_EQ(complete({"orphaning-deletion", "status", "--dry"}),
            (std::vector<std::string>{":words"}));
}

TEST(KubefedctlCompletionTest, EveryShellHasAScript) {
  EXPECT_NE(completionScript("bash").find("complete -F _kubefedctl kubefedctl"), std::string::npos);
  EXPECT_NE(completionScript("zsh").find("compdef _kubefedctl kubefedctl"), std::string::npos);
  EXPECT_NE(completionScript("fish").find("complete -c kubefedctl"), std::string::npos);
  EXPECT_EQ(completionScript("tcsh"), "");

  std::ostringstream out, err;
  EXPECT_EQ(runRoot({"completion", "tcsh"}, {out, err}), 255);
  EXPECT_EQ(err.str(), "Error: Unsupported shell type \"tcsh\".\n");
  std::ostringstream out2, err2;
  EXPECT_EQ(runRoot({"completion"}, {out2, err2}), 255);
  EXPECT_EQ(err2.str(), "Error: Shell not specified.\n");
}

}  // namespace
}  // namespace kf::kubefedctl

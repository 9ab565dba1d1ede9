// kubefedctl's parts that need no server: dispatch, help, exit codes and the equivalent-API rule.

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/create_resources.h"
#include "cmd/kubefedctl/root.h"

namespace kf::kubefedctl {
namespace {

struct RootRun {
  std::ostringstream out;
  std::ostringstream err;
  int run(const std::vector<std::string>& args) { return runRoot(args, {out, err}); }
};

TEST(RootCommandTest, DispatchesAndPrintsHelp) {
  RootRun root;
  EXPECT_EQ(root.run({"--help"}), 0);
  // Names padded to the longest, orphaning-deletion, as cobra pads them.
  EXPECT_NE(root.out.str().find("  enable             Enables propagation"), std::string::npos)
      << root.out.str();
  for (const char* command : {"completion", "disable", "federate", "join", "orphaning-deletion",
                              "unjoin", "version", "help"}) {
    EXPECT_NE(root.out.str().find(std::string("\n  ") + command + " "), std::string::npos)
        << command;
  }
  EXPECT_EQ(root.out.str().find("__complete"), std::string::npos);
  RootRun unknown;
  EXPECT_EQ(unknown.run({"frobnicate"}), 1);
  EXPECT_NE(unknown.err.str().find("unknown command \"frobnicate\""), std::string::npos);
  RootRun help;
  EXPECT_EQ(help.run({"disable", "--help"}), 0);
  EXPECT_NE(help.out.str().find("kubefedctl disable deployments.apps --delete-crd"),
            std::string::npos);
  EXPECT_NE(help.out.str().find("--kubefed-namespace string"), std::string::npos);
  RootRun version;
  EXPECT_EQ(version.run({"version"}), 0);
  EXPECT_EQ(version.out.str().rfind("kubefedctl version: version.Info{", 0), 0u);
}

TEST(RootCommandTest, FailsWithExitCode255) {
  RootRun bad_output;
  EXPECT_EQ(bad_output.run({"enable", "configmaps", "-o", "json"}), 255);
  EXPECT_EQ(bad_output.err.str(), "Error: invalid value for --output: json\n");
  RootRun no_name;
  EXPECT_EQ(no_name.run({"enable"}), 255);
  RootRun flag_rule;
  EXPECT_EQ(flag_rule.run({"disable", "x", "--federated-group", "g.io"}), 255);
  EXPECT_EQ(flag_rule.err.str(), "Error: --kubefed-group flag valid only with --delete-crd\n");
  RootRun bad_flag;
  EXPECT_EQ(bad_flag.run({"enable", "--bogus"}), 1);
}

Json target(const std::string& plural, const std::string& group, const std::string& version) {
  return {{"group", group}, {"version", version}, {"pluralName", plural}};
}

TEST(EquivalentApisTest, MatchesOnlyKnownAliasesOfOneApi) {
  EXPECT_TRUE(equivalentApis(target("deployments", "apps", "v1"),
                             target("deployments", "extensions", "v1beta1")));
  EXPECT_TRUE(equivalentApis(target("ingresses", "networking.k8s.io", "v1beta1"),
                             target("ingresses", "extensions", "v1beta1")));
  EXPECT_FALSE(
      equivalentApis(target("deployments", "apps", "v1"), target("deployments", "apps", "v1")));
  EXPECT_FALSE(equivalentApis(target("statefulsets", "apps", "v1"),
                              target("statefulsets", "extensions", "v1beta1")));
  EXPECT_FALSE(equivalentApis(target("widgets", "a.io", "v1"), target("widgets", "b.io", "v1")));
}

}  // namespace
}  // namespace kf::kubefedctl

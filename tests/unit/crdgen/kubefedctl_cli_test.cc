// kubefedctl's parts that need no server: flags, dispatch, help and the equivalent-API rule.

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/create_resources.h"
#include "cmd/kubefedctl/flags.h"
#include "cmd/kubefedctl/root.h"

namespace kf::kubefedctl {
namespace {

struct Parsed {
  std::string output;
  std::string group = "types.kubefed.io";
  bool delete_crd = false;
  FlagSet flags;
  std::ostringstream warnings;
  Parsed() {
    flags.addString("output", 'o', &output, "format");
    flags.addString("federated-group", 0, &group, "group");
    flags.addBool("delete-crd", 0, &delete_crd, "delete");
  }
};

TEST(FlagSetTest, ReadsLongShortAndBooleanForms) {
  Parsed p;
  ASSERT_TRUE(
      p.flags.parse({"NAME", "-o", "yaml", "--federated-group=x.io", "--delete-crd"}, p.warnings));
  EXPECT_EQ(p.output, "yaml");
  EXPECT_EQ(p.group, "x.io");
  EXPECT_TRUE(p.delete_crd);
  EXPECT_EQ(p.flags.positional(), std::vector<std::string>{"NAME"});
  EXPECT_TRUE(p.flags.changed("federated-group"));

  Parsed q;
  ASSERT_TRUE(q.flags.parse(
      {"-oyaml", "--delete-crd=false", "--federated_group", "y.io", "--", "--not-a-flag"},
      q.warnings));
  EXPECT_EQ(q.output, "yaml");
  EXPECT_FALSE(q.delete_crd);
  EXPECT_EQ(q.group, "y.io");
  EXPECT_NE(q.warnings.str().find("federated_group has been converted to federated-group"),
            std::string::npos);
  EXPECT_EQ(q.flags.positional(), std::vector<std::string>{"--not-a-flag"});
}

TEST(FlagSetTest, RejectsUnknownFlagsAndMissingValues) {
  Parsed p;
  EXPECT_FALSE(p.flags.parse({"--nope"}, p.warnings));
  EXPECT_EQ(p.flags.error(), "unknown flag: --nope");
  Parsed q;
  EXPECT_FALSE(q.flags.parse({"--output"}, q.warnings));
  EXPECT_EQ(q.flags.error(), "flag needs an argument: --output");
  Parsed r;
  EXPECT_FALSE(r.flags.parse({"--delete-crd=maybe"}, r.warnings));
  Parsed h;
  ASSERT_TRUE(h.flags.parse({"-h"}, h.warnings));
  EXPECT_TRUE(h.flags.helpRequested());
  EXPECT_NE(h.flags.usage().find("-o, --output string"), std::string::npos);
  EXPECT_NE(h.flags.usage().find("(default \"types.kubefed.io\")"), std::string::npos);
}

struct Captured {
  std::ostringstream out;
  std::ostringstream err;
  int run(const std::vector<std::string>& args) { return runRoot(args, {out, err}); }
};

TEST(RootCommandTest, DispatchesAndPrintsHelp) {
  Captured root;
  EXPECT_EQ(root.run({"--help"}), 0);
  EXPECT_NE(root.out.str().find("  enable      Enables propagation"), std::string::npos);
  Captured unknown;
  EXPECT_EQ(unknown.run({"frobnicate"}), 1);
  EXPECT_NE(unknown.err.str().find("unknown command \"frobnicate\""), std::string::npos);
  Captured help;
  EXPECT_EQ(help.run({"disable", "--help"}), 0);
  EXPECT_NE(help.out.str().find("kubefedctl disable deployments.apps --delete-crd"),
            std::string::npos);
  EXPECT_NE(help.out.str().find("--kubefed-namespace string"), std::string::npos);
  Captured version;
  EXPECT_EQ(version.run({"version"}), 0);
  EXPECT_EQ(version.out.str().rfind("kubefedctl version: version.Info{", 0), 0u);
}

TEST(RootCommandTest, FailsWithExitCode255) {
  Captured bad_output;
  EXPECT_EQ(bad_output.run({"enable", "configmaps", "-o", "json"}), 255);
  EXPECT_EQ(bad_output.err.str(), "Error: invalid value for --output: json\n");
  Captured no_name;
  EXPECT_EQ(no_name.run({"enable"}), 255);
  Captured flag_rule;
  EXPECT_EQ(flag_rule.run({"disable", "x", "--federated-group", "g.io"}), 255);
  EXPECT_EQ(flag_rule.err.str(), "Error: --kubefed-group flag valid only with --delete-crd\n");
  Captured bad_flag;
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

// The flag parser every binary uses.

#include "cmd/cli/flags.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kf::cli {
namespace {

struct Parsed {
  std::string output;
  std::string group = "types.kubefed.io";
  bool delete_crd = false;
  std::vector<std::string> skip;
  FlagSet flags;
  std::ostringstream warnings;
  Parsed() {
    flags.addString("output", 'o', &output, "format");
    flags.addString("federated-group", 0, &group, "group");
    flags.addBool("delete-crd", 0, &delete_crd, "delete");
    flags.addStringList("skip-api-resources", 's', &skip, "skip");
  }
};

// Verifies the long, short, inline and boolean forms, underscores and "--".
TEST(FlagSetTest, ReadsLongShortAndBooleanForms) {
  Parsed p;
  ASSERT_TRUE(
      p.flags.parse({"NAME", "-o", "yaml", "--federated-group=x.io", "--delete-crd"}, p.warnings));
  EXPECT_EQ(p.output, "yaml");
  EXPECT_EQ(p.group, "x.io");
  EXPECT_TRUE(p.delete_crd);
  EXPECT_EQ(p.flags.positional(), std::vector<std::string>{"NAME"});
  EXPECT_TRUE(p.flags.changed("federated-group"));
  EXPECT_FALSE(p.flags.changed("skip-api-resources"));

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

// Verifies pflag's StringSlice: commas split, repeats append.
TEST(FlagSetTest, StringListsSplitOnCommasAndAppend) {
  Parsed p;
  ASSERT_TRUE(p.flags.parse({"-s", "deploy,apps", "--skip-api-resources=cm"}, p.warnings));
  EXPECT_EQ(p.skip, (std::vector<std::string>{"deploy", "apps", "cm"}));
  EXPECT_TRUE(p.flags.changed("skip-api-resources"));
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
  EXPECT_EQ(r.flags.error(),
            "invalid argument \"maybe\" for \"--delete-crd\" flag: strconv.ParseBool: parsing "
            "\"maybe\": invalid syntax");
  Parsed s;
  EXPECT_FALSE(s.flags.parse({"-x"}, s.warnings));
  EXPECT_EQ(s.flags.error(), "unknown shorthand flag: 'x' in -x");
  Parsed h;
  ASSERT_TRUE(h.flags.parse({"-h"}, h.warnings));
  EXPECT_TRUE(h.flags.helpRequested());
  EXPECT_NE(h.flags.usage().find("-o, --output string"), std::string::npos);
  EXPECT_NE(h.flags.usage().find("(default \"types.kubefed.io\")"), std::string::npos);
  EXPECT_NE(h.flags.usage().find("-s, --skip-api-resources strings"), std::string::npos);
}

// Verifies what help and completion see: global flags in their own block, hidden flags nowhere.
TEST(FlagSetTest, GlobalAndHiddenFlagsShowWhereCobraShowsThem) {
  std::string local, global, hidden;
  FlagSet flags;
  flags.addString("local", 'l', &local, "a local flag");
  flags.addString("hidden", 0, &hidden, "a hidden flag");
  flags.hide("hidden");
  flags.beginGlobalFlags();
  flags.addString("v", 'v', &global, "verbosity", "Level");
  EXPECT_NE(flags.usage().find("-l, --local string"), std::string::npos);
  EXPECT_EQ(flags.usage().find("--v"), std::string::npos);
  EXPECT_EQ(flags.usage().find("--hidden"), std::string::npos);
  EXPECT_NE(flags.globalUsage().find("-v, --v Level"), std::string::npos);
  std::vector<std::string> names;
  for (const auto& flag : flags.visibleFlags()) names.push_back(flag.name);
  EXPECT_EQ(names, (std::vector<std::string>{"local", "v"}));

  ASSERT_TRUE(flags.flagFor("--local=x"));
  EXPECT_TRUE(flags.flagFor("--local=x")->takes_value);
  EXPECT_EQ(flags.flagFor("-v")->name, "v");
  EXPECT_FALSE(flags.flagFor("--nope"));
  std::ostringstream warnings;
  EXPECT_TRUE(flags.parse({"--hidden", "h"}, warnings));
  EXPECT_EQ(hidden, "h");
}

}  // namespace
}  // namespace kf::cli

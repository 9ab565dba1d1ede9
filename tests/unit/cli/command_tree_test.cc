// The command tree: dispatch through groups, help, exit codes, klog's flags anywhere, and the
// completion of commands, flags, flag values and arguments.

#include "cmd/cli/command_tree.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/cli/logging.h"

namespace kf::cli {
namespace {

// A leaf that records how it was run.
class Greet : public Command {
 public:
  explicit Greet(std::vector<std::string>* ran) : ran_(ran) {}
  void addFlags(FlagSet& flags) override {
    flags.addString("name", 'n', &name_, "who to greet");
    flags.addString("file", 'f', &file_, "a file");
    flags.addBool("loud", 0, &loud_, "shout");
  }
  int run(const std::vector<std::string>& args, Streams streams) override {
    *ran_ = args;
    ran_->push_back("name=" + name_);
    streams.out << "hello\n";
    return args.empty() ? kExitFailure : kExitOk;
  }
  Completion completeArgument(const std::vector<std::string>& args) override {
    if (args.empty()) return {{"alpha", "beta", "gamma"}, false};
    return {{"second-" + name_}, false};
  }
  Completion completeFlagValue(const std::string& flag) override {
    if (flag == "name") return {{"ann", "bob"}, false};
    if (flag == "file") return {{}, true};
    return {};
  }

 private:
  std::vector<std::string>* ran_;
  std::string name_;
  std::string file_;
  bool loud_ = false;
};

class CommandTreeTest : public ::testing::Test {
 protected:
  CommandTreeTest() {
    auto make = [this] { return std::make_unique<Greet>(&ran_); };
    root_ = {"prog",
             {"", "prog does things", "prog does things, at length.", ""},
             nullptr,
             {{"greet",
               {"greet NAME", "Greets", "Greets someone.", "  # Greet\n  prog greet a"},
               make,
               {}},
              {"sub",
               {"sub", "A group", "A group of commands.", ""},
               nullptr,
               {{"inner", {"inner ARG", "Inner command", "", ""}, make, {}}}},
              {"secret", {"secret", "Hidden", "", ""}, make, {}, /*hidden=*/true}}};
  }
  ~CommandTreeTest() override { (void)setUpLogging({}); }

  int run(const std::vector<std::string>& args) { return execute(root_, args, {out_, err_}); }
  std::vector<std::string> words(const std::vector<std::string>& line) {
    return complete(root_, line).words;
  }

  CommandSpec root_;
  std::vector<std::string> ran_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(CommandTreeTest, RunsALeafWithItsArgumentsAndFlags) {
  EXPECT_EQ(run({"greet", "a", "--name", "x"}), kExitOk);
  EXPECT_EQ(ran_, (std::vector<std::string>{"a", "name=x"}));
  EXPECT_EQ(out_.str(), "hello\n");
  // The command's own exit code comes back.
  EXPECT_EQ(run({"greet"}), kExitFailure);
}

TEST_F(CommandTreeTest, AcceptsKlogFlagsBeforeAndAfterTheCommand) {
  EXPECT_EQ(run({"-v", "2", "--logtostderr=true", "sub", "inner", "b", "--v=3"}), kExitOk);
  EXPECT_EQ(ran_, (std::vector<std::string>{"b", "name="}));
}

TEST_F(CommandTreeTest, BadFlagsAreUsageErrorsWithTheUsage) {
  EXPECT_EQ(run({"greet", "--nope"}), kExitUsage);
  EXPECT_NE(err_.str().find("Error: unknown flag: --nope"), std::string::npos);
  EXPECT_NE(err_.str().find("Usage:\n  prog greet NAME [flags]"), std::string::npos);
  EXPECT_TRUE(ran_.empty());

  std::ostringstream err;
  EXPECT_EQ(execute(root_, {"greet", "a", "-v", "loud"}, {out_, err}), kExitUsage);
  EXPECT_NE(err.str().find("invalid argument \"loud\" for \"-v, --v\" flag"), std::string::npos)
      << err.str();
  EXPECT_TRUE(ran_.empty());
}

TEST_F(CommandTreeTest, UnknownCommandsAreUsageErrors) {
  EXPECT_EQ(run({"frobnicate"}), kExitUsage);
  EXPECT_EQ(err_.str(),
            "Error: unknown command \"frobnicate\" for \"prog\"\nRun 'prog --help' for usage.\n");
  std::ostringstream err;
  EXPECT_EQ(execute(root_, {"sub", "nope"}, {out_, err}), kExitUsage);
  EXPECT_NE(err.str().find("unknown command \"nope\" for \"prog sub\""), std::string::npos);
}

TEST_F(CommandTreeTest, GroupsListTheirCommandsInCobrasLayout) {
  EXPECT_EQ(run({}), kExitOk);
  const std::string help = out_.str();
  EXPECT_EQ(
      help.rfind("prog does things, at length.\n\nUsage:\n  prog [flags]\n  prog [command]\n", 0),
      0u)
      << help;
  EXPECT_NE(help.find("Available Commands:\n  greet       Greets\n  help        Help about any "
                      "command\n  sub         A group\n"),
            std::string::npos)
      << help;
  EXPECT_EQ(help.find("secret"), std::string::npos);
  EXPECT_NE(help.find("-v, --v Level"), std::string::npos);
  EXPECT_NE(help.find("Use \"prog [command] --help\""), std::string::npos);

  std::ostringstream sub;
  EXPECT_EQ(execute(root_, {"sub", "--help"}, {sub, err_}), kExitOk);
  EXPECT_NE(sub.str().find("  inner       Inner command"), std::string::npos) << sub.str();
  EXPECT_NE(sub.str().find("Global Flags:"), std::string::npos);
}

TEST_F(CommandTreeTest, LeafHelpHasUsageExamplesFlagsAndGlobalFlags) {
  EXPECT_EQ(run({"help", "sub", "inner"}), kExitOk);
  EXPECT_NE(out_.str().find("Usage:\n  prog sub inner ARG [flags]"), std::string::npos)
      << out_.str();
  std::ostringstream greet;
  EXPECT_EQ(execute(root_, {"greet", "-h"}, {greet, err_}), kExitOk);
  const std::string help = greet.str();
  EXPECT_NE(help.find("Greets someone.\n\nUsage:\n  prog greet NAME [flags]\n\nExamples:\n  # "
                      "Greet\n  prog greet a\n\nFlags:\n"),
            std::string::npos)
      << help;
  EXPECT_LT(help.find("-n, --name string"), help.find("Global Flags:"));
  EXPECT_GT(help.find("--logtostderr"), help.find("Global Flags:"));
  EXPECT_TRUE(ran_.empty());
}

TEST_F(CommandTreeTest, CompletesCommandNames) {
  EXPECT_EQ(words({""}), (std::vector<std::string>{"greet", "sub", "help"}));
  EXPECT_EQ(words({"gr"}), (std::vector<std::string>{"greet"}));
  EXPECT_EQ(words({"sub", ""}), (std::vector<std::string>{"inner"}));
  // klog's flags and their values are skipped on the way to the command.
  EXPECT_EQ(words({"-v", "2", "su"}), (std::vector<std::string>{"sub"}));
  EXPECT_TRUE(words({"nope", ""}).empty());
}

TEST_F(CommandTreeTest, CompletesFlagsAndTheirValues) {
  EXPECT_EQ(words({"greet", "--na"}), (std::vector<std::string>{"--name"}));
  EXPECT_EQ(words({"greet", "--lo"}),
            (std::vector<std::string>{"--loud", "--log-backtrace-at", "--log-dir", "--log-file",
                                      "--log-file-max-size", "--logtostderr"}));
  EXPECT_EQ(words({"greet", "--name", ""}), (std::vector<std::string>{"ann", "bob"}));
  EXPECT_EQ(words({"greet", "-n", "b"}), (std::vector<std::string>{"bob"}));
  EXPECT_EQ(words({"greet", "--name=a"}), (std::vector<std::string>{"--name=ann"}));
  EXPECT_TRUE(complete(root_, {"greet", "-f", ""}).files);
  // A boolean flag takes no value: the next word is an argument again.
  EXPECT_EQ(words({"greet", "--loud", "g"}), (std::vector<std::string>{"gamma"}));
}

TEST_F(CommandTreeTest, CompletesArgumentsWithTheFlagsTypedSoFar) {
  EXPECT_EQ(words({"greet", ""}), (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_EQ(words({"greet", "alpha", "--name", "zed", ""}),
            (std::vector<std::string>{"second-zed"}));
  EXPECT_EQ(words({"sub", "inner", "b"}), (std::vector<std::string>{"beta"}));
}

}  // namespace
}  // namespace kf::cli

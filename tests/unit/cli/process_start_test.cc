#include "cmd/cli/process_start.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cmd/cli/command.h"

namespace kf::cli {

// The fields every binary's Options has, and the describeFlags next to them.
struct FakeOptions {
  bool help = false;
  bool print_version = false;
  LogSettings logging;
  int verbosity = 0;
};
std::string describeFlags(const FakeOptions&) { return "--fake=1"; }

namespace {

using testing::HasSubstr;
using testing::Not;

const StartupText kText{"Usage: fake [flags]\n", "Fake version: v0", false};

struct Printed {
  std::optional<int> exit;
  std::string out;
  std::string err;
};

Printed startUpCaptured(const Result<FakeOptions>& parsed, const StartupText& text = kText) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Printed printed;
  printed.exit = startUp(parsed, text);
  printed.out = testing::internal::GetCapturedStdout();
  printed.err = testing::internal::GetCapturedStderr();
  return printed;
}

// Verifies that bad flags end the process with cobra's exit code and the error, followed by the
// usage only where the binary prints it.
TEST(ProcessStartTest, BadFlagsExitWithTheErrorAndWhereAskedTheUsage) {
  const ApiError bad = makeError(Reason::kBadConfig, "unknown flag: --nope");
  Printed printed = startUpCaptured(bad);
  EXPECT_EQ(printed.exit, kExitUsage);
  EXPECT_EQ(printed.err, "Error: unknown flag: --nope\n");
  EXPECT_EQ(printed.out, "");

  StartupText with_usage = kText;
  with_usage.usage_after_error = true;
  printed = startUpCaptured(bad, with_usage);
  EXPECT_EQ(printed.err, "Error: unknown flag: --nope\nUsage: fake [flags]\n");
}

// Verifies that --help prints the usage only and ends the process with 0.
TEST(ProcessStartTest, HelpPrintsTheUsageAndEnds) {
  FakeOptions options;
  options.help = true;
  Printed printed = startUpCaptured(options);
  EXPECT_EQ(printed.exit, 0);
  EXPECT_EQ(printed.out, "Usage: fake [flags]\n");
}

// Verifies that the version line is printed on every start, and that --version ends there.
TEST(ProcessStartTest, TheVersionLineComesFirstAndVersionEnds) {
  FakeOptions options;
  options.print_version = true;
  Printed printed = startUpCaptured(options);
  EXPECT_EQ(printed.exit, 0);
  EXPECT_EQ(printed.out, "Fake version: v0\n");

  options.print_version = false;
  printed = startUpCaptured(options);
  EXPECT_EQ(printed.exit, std::nullopt);
  EXPECT_EQ(printed.out, "Fake version: v0\n");
  EXPECT_THAT(printed.err, Not(HasSubstr("--fake=1")));
}

// Verifies that at -v 1 the flags are logged once logging is set up.
TEST(ProcessStartTest, VerbosityOneLogsTheFlags) {
  FakeOptions options;
  options.verbosity = 1;
  options.logging.verbosity = 1;
  Printed printed = startUpCaptured(options);
  EXPECT_EQ(printed.exit, std::nullopt);
  EXPECT_THAT(printed.err, HasSubstr("Flags: --fake=1"));
  (void)setUpLogging({});
}

}  // namespace
}  // namespace kf::cli

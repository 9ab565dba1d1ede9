// klog's flags: which are honoured, how, and which are only accepted.

#include "cmd/cli/logging.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kf::cli {
namespace {

namespace fs = std::filesystem;

Result<LogSettings> settingsFor(const std::vector<std::string>& args) {
  LogOptions options;
  FlagSet flags;
  options.addTo(flags);
  std::ostringstream warnings;
  if (!flags.parse(args, warnings)) return makeError(Reason::kBadConfig, flags.error());
  return logSettings(options);
}

std::string contents(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class LoggingTest : public ::testing::Test {
 protected:
  ~LoggingTest() override {
    (void)setUpLogging({});
    fs::remove_all(dir_);
  }
  const fs::path dir_ =
      fs::temp_directory_path() / ("kf-logging-test-" + std::to_string(::getpid()));
};

TEST_F(LoggingTest, DefaultsAreKlogs) {
  auto settings = settingsFor({});
  ASSERT_TRUE(settings) << settings.error().message;
  EXPECT_EQ(settings.value().verbosity, 0);
  EXPECT_TRUE(settings.value().to_stderr);
  EXPECT_EQ(settings.value().file, "");
  EXPECT_TRUE(settings.value().headers);
  EXPECT_EQ(settings.value().stderr_threshold, 2);
  EXPECT_TRUE(settings.value().notes.empty());
}

TEST_F(LoggingTest, BadValuesNameTheFlag) {
  auto verbosity = settingsFor({"--v=high"});
  ASSERT_FALSE(verbosity);
  EXPECT_EQ(verbosity.error().message,
            "invalid argument \"high\" for \"-v, --v\" flag: strconv.ParseInt: parsing \"high\": "
            "invalid syntax");
  auto threshold = settingsFor({"--stderrthreshold", "LOUD"});
  ASSERT_FALSE(threshold);
  EXPECT_NE(threshold.error().message.find("--stderrthreshold"), std::string::npos);
  auto by_name = settingsFor({"--stderrthreshold", "warning", "-v", "2"});
  ASSERT_TRUE(by_name) << by_name.error().message;
  EXPECT_EQ(by_name.value().stderr_threshold, 1);
  EXPECT_EQ(by_name.value().verbosity, 2);
}

TEST_F(LoggingTest, LogsGoToStderrWithKlogsHeader) {
  auto settings = settingsFor({"--v=2"});
  ASSERT_TRUE(settings);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(settings.value()));
  spdlog::info("Starting cluster controller");
  spdlog::warn("a warning");
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "");
  EXPECT_NE(err.find("] Starting cluster controller\n"), std::string::npos) << err;
  EXPECT_EQ(err.front(), 'I') << err;
  EXPECT_NE(err.find("\nW"), std::string::npos) << err;
  EXPECT_NE(err.find(" " + std::to_string(::getpid()) + "] "), std::string::npos) << err;
}

TEST_F(LoggingTest, SkipHeadersLeavesTheMessageAlone) {
  auto settings = settingsFor({"--skip-headers"});
  ASSERT_TRUE(settings);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(settings.value()));
  spdlog::info("bare line");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "bare line\n");
}

TEST_F(LoggingTest, ALogFileTakesTheLinesAndStderrKeepsErrors) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "kubefed.log";
  std::ofstream(file) << "kept from before\n";
  auto settings = settingsFor({"--logtostderr=false", "--log-file", file.string()});
  ASSERT_TRUE(settings);
  EXPECT_FALSE(settings.value().to_stderr);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(settings.value()));
  spdlog::info("into the file");
  spdlog::error("into both");
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string logged = contents(file);
  EXPECT_EQ(logged.rfind("kept from before\n", 0), 0u) << "klog appends: " << logged;
  EXPECT_NE(logged.find("] into the file\n"), std::string::npos) << logged;
  EXPECT_NE(logged.find("] into both\n"), std::string::npos) << logged;
  EXPECT_EQ(err.find("into the file"), std::string::npos) << err;
  EXPECT_NE(err.find("] into both\n"), std::string::npos) << err;
}

TEST_F(LoggingTest, AlsoLogToStderrCopiesEveryLine) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "also.log";
  auto settings =
      settingsFor({"--logtostderr=false", "--alsologtostderr", "--log-file=" + file.string()});
  ASSERT_TRUE(settings);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(settings.value()));
  spdlog::info("everywhere");
  EXPECT_NE(testing::internal::GetCapturedStderr().find("] everywhere"), std::string::npos);
  EXPECT_NE(contents(file).find("] everywhere"), std::string::npos);
}

TEST_F(LoggingTest, ALogFileIsIgnoredWhileLoggingToStderr) {
  auto settings = settingsFor({"--log-file", (dir_ / "unused.log").string()});
  ASSERT_TRUE(settings);
  EXPECT_EQ(settings.value().file, "");
  EXPECT_TRUE(settings.value().to_stderr);
}

TEST_F(LoggingTest, AnUnwritableLogFileIsAnError) {
  auto settings = settingsFor({"--logtostderr=false", "--log-file", "/proc/kf-no/such.log"});
  ASSERT_TRUE(settings);
  auto ready = setUpLogging(settings.value());
  ASSERT_FALSE(ready);
  EXPECT_NE(ready.error().message.find("cannot open the --log-file \"/proc/kf-no/such.log\""),
            std::string::npos)
      << ready.error().message;
}

TEST_F(LoggingTest, FlagsWeCannotHonourAreAcceptedAndSaidOnceAtV1) {
  auto quiet = settingsFor({"--vmodule=sync*=4", "--log-dir=/tmp"});
  ASSERT_TRUE(quiet) << quiet.error().message;
  ASSERT_EQ(quiet.value().notes.size(), 2u);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(quiet.value()));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  auto verbose = settingsFor({"--vmodule=sync*=4", "--log-dir=/tmp", "-v", "1"});
  ASSERT_TRUE(verbose);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(setUpLogging(verbose.value()));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("--vmodule is accepted but ignored"), std::string::npos) << err;
  EXPECT_NE(err.find("--log-dir is accepted but ignored"), std::string::npos) << err;
  EXPECT_EQ(err.find("--vmodule", err.find("--vmodule") + 1), std::string::npos) << err;
}

}  // namespace
}  // namespace kf::cli

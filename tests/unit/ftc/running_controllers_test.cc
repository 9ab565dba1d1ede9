#include "controllers/federatedtypeconfig/running_controllers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/ftc/ftc_fixtures.h"
#include "tests/unit/ftc/recording_type_controllers.h"

namespace kf {
namespace {

using Kind = TypeControllerKind;

class RunningControllersTest : public ::testing::Test {
 protected:
  RunnablePtr startSync(const core::FederatedTypeConfig& ftc) {
    return std::move(factory_.syncController(ftc)).value();
  }

  test::RecordingTypeControllerFactory factory_;
  RunningControllers running_;
};

// Verifies that controllers are tracked per FTC and kind, and listed sorted by FTC name.
TEST_F(RunningControllersTest, TracksControllersPerFtcAndKind) {
  running_.add("services", Kind::kSync, startSync(test::servicesFtc("Enabled", true)));
  running_.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
  running_.add("services", Kind::kStatus,
               std::move(factory_.statusController(test::servicesFtc("Enabled", true))).value());

  EXPECT_TRUE(running_.isRunning("services", Kind::kSync));
  EXPECT_TRUE(running_.isRunning("services", Kind::kStatus));
  EXPECT_FALSE(running_.isRunning("configmaps", Kind::kStatus));
  EXPECT_EQ(running_.names(Kind::kSync), (std::vector<std::string>{"configmaps", "services"}));
  EXPECT_EQ(running_.names(Kind::kStatus), std::vector<std::string>{"services"});
}

// Verifies that stop() stops the controller once and reports whether one ran.
TEST_F(RunningControllersTest, StopStopsAndForgets) {
  running_.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
  EXPECT_TRUE(running_.stop("configmaps", Kind::kSync));
  EXPECT_FALSE(running_.stop("configmaps", Kind::kSync));
  EXPECT_EQ(factory_.stops("configmaps", Kind::kSync), 1);
  EXPECT_FALSE(running_.isRunning("configmaps", Kind::kSync));
}

// Verifies that registering a second controller for the same slot stops the first.
TEST_F(RunningControllersTest, ReplacingStopsThePreviousController) {
  running_.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
  running_.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
  EXPECT_EQ(factory_.stops("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.live(), 1);
}

// Verifies that stopAll() (and the destructor) stop every controller.
TEST_F(RunningControllersTest, StopAllStopsEverything) {
  {
    RunningControllers running;
    running.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
    running.add("namespaces", Kind::kSync, startSync(test::namespacesFtc()));
    EXPECT_EQ(factory_.live(), 2);
  }
  EXPECT_EQ(factory_.live(), 0);

  running_.add("configmaps", Kind::kSync, startSync(test::configMapsFtc()));
  running_.stopAll();
  EXPECT_EQ(factory_.live(), 0);
  EXPECT_TRUE(running_.names(Kind::kSync).empty());
}

}  // namespace
}  // namespace kf

// The webhook's command line: KubeFed's flags and defaults.

#include "cmd/webhook/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::webhook {
namespace {

using testing::HasSubstr;

// Verifies the defaults are KubeFed's: port 8443, controller-runtime's certificate directory.
TEST(WebhookOptionsTest, DefaultsAreKubeFeds) {
  auto options = parseOptions({});
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_EQ(options.value().secure_port, 8443);
  EXPECT_EQ(options.value().cert_dir, "");
  EXPECT_EQ(options.value().verbosity, 0);
  EXPECT_FALSE(options.value().print_version);
  EXPECT_EQ(defaultCertDir(nullptr), "/tmp/k8s-webhook-server/serving-certs");
  EXPECT_EQ(defaultCertDir(""), "/tmp/k8s-webhook-server/serving-certs");
  EXPECT_EQ(defaultCertDir("/var/tmp"), "/var/tmp/k8s-webhook-server/serving-certs");
}

// Verifies every flag, in the forms the chart and KubeFed's docs pass them.
TEST(WebhookOptionsTest, ParsesEveryFlag) {
  auto options =
      parseOptions({"--secure-port=9443", "--cert-dir=/var/serving-cert/", "--v=8", "--kubeconfig",
                    "/k", "--master", "https://127.0.0.1:6443", "--version"});
  ASSERT_TRUE(options) << options.error().message;
  const Options& o = options.value();
  EXPECT_EQ(o.secure_port, 9443);
  EXPECT_EQ(o.cert_dir, "/var/serving-cert/");
  EXPECT_EQ(o.verbosity, 8);
  EXPECT_EQ(o.kubeconfig, "/k");
  EXPECT_EQ(o.master, "https://127.0.0.1:6443");
  EXPECT_TRUE(o.print_version);
  auto short_v = parseOptions({"-v", "2"});
  ASSERT_TRUE(short_v);
  EXPECT_EQ(short_v.value().verbosity, 2);
}

// Verifies bad values and unknown flags are refused with what was wrong.
TEST(WebhookOptionsTest, BadValuesNameTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--secure-port", "https"},
       "invalid value \"https\" for flag --secure-port: expected an integer"},
      {{"--secure-port", "70000"},
       "invalid value \"70000\" for flag --secure-port: must be from 0 to 65535"},
      // klog's flags come from the shared command-line library, with pflag's wording.
      {{"--v", "loud"}, "invalid argument \"loud\" for \"-v, --v\" flag"},
      {{"--port", "1"}, "unknown flag: --port"},
      {{"serve"}, "unexpected argument \"serve\""}};
  for (const auto& [args, message] : cases) {
    auto options = parseOptions(args);
    ASSERT_FALSE(options) << args[0];
    EXPECT_EQ(options.error().reason, Reason::kBadConfig);
    EXPECT_THAT(options.error().message, HasSubstr(message));
  }
}

// Verifies --help is a request, not an error, and that the usage lists KubeFed's flags.
TEST(WebhookOptionsTest, HelpListsTheFlags) {
  auto options = parseOptions({"--help"});
  ASSERT_TRUE(options);
  EXPECT_TRUE(options.value().help);
  for (const char* flag :
       {"--secure-port", "--cert-dir", "--kubeconfig", "--master", "--version", "-v, --v"}) {
    EXPECT_THAT(usage(), HasSubstr(flag));
  }
}

}  // namespace
}  // namespace kf::webhook

// Writing refreshed auth-provider tokens back into a kubeconfig: only the user's values change,
// quoting survives, the file is replaced whole (through a symbolic link: its target), kubectl's
// lock is honoured.

#include "federation/client/kubeconfig_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "federation/client/kubeconfig.h"
#include "tests/support/temp_dir.h"

namespace kf {
namespace {

using ::testing::HasSubstr;

constexpr const char* kConfig =
    "apiVersion: v1\n"
    "kind: Config\n"
    "# a comment kubectl would drop too\n"
    "clusters: [{name: c, cluster: {server: \"https://h:6443\"}}]\n"
    "users:\n"
    "- name: bob\n"
    "  user:\n"
    "    as: \"true\"\n"
    "    as-uid: \"1234\"\n"
    "    token: plain-token\n"
    "- name: alice\n"
    "  user:\n"
    "    auth-provider:\n"
    "      name: oidc\n"
    "      config:\n"
    "        client-id: \"007\"\n"
    "        id-token: old-id\n"
    "        refresh-token: old-refresh\n"
    "contexts: [{name: ctx, context: {cluster: c, user: alice}}]\n"
    "current-context: ctx\n";

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class KubeconfigWriterTest : public ::testing::Test {
 protected:
  KubeconfigWriterTest() {
    dir_.write("config", kConfig);
    ::chmod(path().c_str(), 0640);
  }
  std::string path() const { return dir_.file("config"); }

  test::TempDir dir_;
};

TEST_F(KubeconfigWriterTest, SetsTheUsersValuesAndKeepsEverythingElse) {
  ASSERT_TRUE(
      writeAuthProviderConfig(path(), "alice", {{"id-token", "new-id"}, {"refresh-token", "1e3"}}));
  auto reloaded = loadKubeconfigFile(path());
  ASSERT_TRUE(reloaded.has_value()) << reloaded.error().message;
  const Kubeconfig& config = reloaded.value();
  std::map<std::string, std::string> provider_config;
  for (const auto& entry : YAML::LoadFile(path())["users"][1]["user"]["auth-provider"]["config"]) {
    provider_config[entry.first.as<std::string>()] = entry.second.as<std::string>();
  }
  EXPECT_EQ(provider_config,
            (std::map<std::string, std::string>{
                {"client-id", "007"}, {"id-token", "new-id"}, {"refresh-token", "1e3"}}));
  EXPECT_EQ(config.users.at("bob").token, "plain-token");
  EXPECT_EQ(config.current_context, "ctx");
  EXPECT_EQ(config.clusters.at("c").server, "https://h:6443");
  // What kubectl (a Go YAML reader) would otherwise read as a bool or a number stays a string.
  const std::string text = fileText(path());
  EXPECT_THAT(text, HasSubstr("as: \"true\""));
  EXPECT_THAT(text, HasSubstr("as-uid: \"1234\""));
  EXPECT_THAT(text, HasSubstr("client-id: \"007\""));
  EXPECT_THAT(text, HasSubstr("refresh-token: \"1e3\""));
  struct stat file_stat {};
  ASSERT_EQ(::stat(path().c_str(), &file_stat), 0);
  EXPECT_EQ(file_stat.st_mode & 0777, 0640u);
  EXPECT_FALSE(std::filesystem::exists(path() + ".lock"));
}

TEST_F(KubeconfigWriterTest, ReplacesTheTargetOfASymbolicLink) {
  std::filesystem::create_symlink(path(), dir_.file("link"));
  ASSERT_TRUE(writeAuthProviderConfig(dir_.file("link"), "alice", {{"id-token", "new-id"}}));
  EXPECT_TRUE(std::filesystem::is_symlink(dir_.file("link")));
  EXPECT_THAT(fileText(path()), HasSubstr("id-token: \"new-id\""));
}

TEST_F(KubeconfigWriterTest, LeavesALockedFileAlone) {
  dir_.write("config.lock", "");
  auto written = writeAuthProviderConfig(path(), "alice", {{"id-token", "new-id"}});
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().message,
            "writing kubeconfig \"" + path() + "\": it is locked (\"" + path() +
                ".lock\" exists): another kubectl or kubefed-cpp is writing it; remove the lock "
                "file if none is");
  EXPECT_EQ(fileText(path()), kConfig);
  EXPECT_TRUE(std::filesystem::exists(path() + ".lock"));
}

TEST_F(KubeconfigWriterTest, RefusesAUserThatNoLongerHasAnAuthProvider) {
  auto written = writeAuthProviderConfig(path(), "bob", {{"id-token", "new-id"}});
  ASSERT_FALSE(written);
  EXPECT_THAT(written.error().message,
              HasSubstr("it no longer has an auth-provider for user \"bob\""));
  EXPECT_THAT(written.error().message, ::testing::Not(HasSubstr("new-id")));
  EXPECT_EQ(fileText(path()), kConfig);
  EXPECT_FALSE(std::filesystem::exists(path() + ".lock"));
}

}  // namespace
}  // namespace kf

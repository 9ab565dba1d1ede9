// The image hack/build-image.sh built for this run (the fixture builds it from this build
// directory): FROM scratch with only the binaries at KubeFed's paths, exactly the shared
// libraries they load, the CA certificates and uid 1001's passwd entry; it runs as uid 1001.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"

namespace kf::node {
namespace {

namespace fs = std::filesystem;
using integration::runCommand;

std::string archivePath() { return integration::builtBinary("image/kubefed.tar"); }

std::string mustRun(const std::string& command) {
  int status = 0;
  std::string output = runCommand(command, &status);
  EXPECT_EQ(status, 0) << command << "\n" << output;
  return output;
}

std::set<std::string> lines(const std::string& text) {
  std::set<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) result.insert(line);
  }
  return result;
}

// A blob of the archive ("sha256:..." digest) as JSON.
Json blob(const std::string& directory, const std::string& digest) {
  const std::string path = directory + "/blobs/sha256/" + digest.substr(digest.find(':') + 1);
  return Json::parse(integration::readFile(path), nullptr, false);
}

class ImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(archivePath())) << "no image at " << archivePath();
    directory_ = fs::temp_directory_path() / ("kubefed-image-test-" + std::to_string(getpid()));
    fs::create_directories(directory_);
    mustRun("tar -xf '" + archivePath() + "' -C '" + directory_.string() + "'");
    Json index =
        Json::parse(integration::readFile(directory_.string() + "/index.json"), nullptr, false);
    ASSERT_TRUE(index.is_object());
    ASSERT_EQ(index["manifests"].size(), 1u);
    manifest_ = blob(directory_.string(), index["manifests"][0].value("digest", ""));
    ASSERT_TRUE(manifest_.is_object());
    config_ = blob(directory_.string(), manifest_["config"].value("digest", ""));
    ASSERT_TRUE(config_.is_object());
  }
  void TearDown() override { fs::remove_all(directory_); }

  // Every regular file of every layer, without the leading "./" or "/".
  std::set<std::string> files() {
    std::set<std::string> all;
    for (const Json& layer : manifest_["layers"]) {
      const std::string digest = layer.value("digest", "");
      const std::string path =
          directory_.string() + "/blobs/sha256/" + digest.substr(digest.find(':') + 1);
      // "tar -tv": type letter first; keep regular files
      for (const std::string& line : lines(mustRun("tar -tvf '" + path + "'"))) {
        if (line.empty() || line[0] != '-') continue;
        std::string name = line.substr(line.rfind(' ') + 1);
        while (!name.empty() && (name[0] == '.' || name[0] == '/')) name.erase(0, 1);
        all.insert(name);
      }
    }
    return all;
  }

  fs::path directory_;
  Json manifest_;
  Json config_;
};

TEST_F(ImageTest, HoldsTheBinariesTheirLibrariesAndCaCertificatesOnly) {
  std::set<std::string> expected = {"etc/passwd", "etc/group", "etc/ssl/certs/ca-certificates.crt"};
  for (const std::string name : {"controller-manager", "webhook", "kubefedctl"}) {
    const std::string binary = integration::builtBinary("cmd/" + name + "/" + name);
    if (!fs::exists(binary)) {
      ASSERT_NE(name, "controller-manager");
      ASSERT_NE(name, "kubefedctl");
      continue;
    }
    expected.insert("hyperfed/" + name);
    // every library the dynamic loader resolves for it, at the same path
    for (const std::string& library : lines(
             mustRun("ldd '" + binary +
                     "' | awk '$2 == \"=>\" && $3 ~ /^\\// {print $3} $1 ~ /^\\// {print $1}'"))) {
      expected.insert(library.substr(1));
    }
  }
  EXPECT_EQ(files(), expected);
}

TEST_F(ImageTest, RunsAsUid1001FromHyperfed) {
  const Json& config = config_["config"];
  EXPECT_EQ(config.value("User", ""), "1001:1001");
  EXPECT_EQ(config.value("Entrypoint", Json::array()),
            Json::parse(R"(["/hyperfed/controller-manager"])"));
  EXPECT_EQ(config.value("WorkingDir", ""), "/hyperfed");
  EXPECT_EQ(manifest_["layers"].size(), 1u) << "FROM scratch: one layer of our own";
}

}  // namespace
}  // namespace kf::node

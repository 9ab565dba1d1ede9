#pragma once
// Files laid out the way the kubelet writes a Secret volume (its atomic writer): the data lives
// in a timestamped directory, "..data" is a symlink to it, and each key ("tls.crt") is a symlink
// "..data/<key>". An update writes a new directory, points a temporary symlink at it and renames
// that over "..data" (one atomic step), then deletes the old directory.

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "tests/support/temp_dir.h"

namespace kf::test {

class SecretVolume {
 public:
  explicit SecretVolume(const TempDir& dir) : dir_(dir.path()) {}

  // Publishes exactly these files (key -> content), replacing the previous set atomically.
  void publish(const std::map<std::string, std::string>& files) {
    namespace fs = std::filesystem;
    const std::string data = "..data_" + std::to_string(++generation_);
    fs::create_directory(dir_ + "/" + data);
    for (const auto& [key, content] : files) {
      std::ofstream(dir_ + "/" + data + "/" + key, std::ios::binary) << content;
    }
    fs::create_symlink(data, dir_ + "/..data_tmp");
    if (std::rename((dir_ + "/..data_tmp").c_str(), (dir_ + "/..data").c_str()) != 0) {
      ADD_FAILURE() << "cannot swap " << dir_ << "/..data";
    }
    for (const auto& [key, content] : files) {
      const std::string link = dir_ + "/" + key;
      if (!fs::is_symlink(link)) fs::create_symlink("..data/" + key, link);
    }
    if (!previous_.empty()) fs::remove_all(dir_ + "/" + previous_);
    previous_ = data;
  }

 private:
  std::string dir_;
  std::string previous_;
  int generation_ = 0;
};

}  // namespace kf::test

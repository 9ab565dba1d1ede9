#include "federation/client/kubeconfig_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kf {
namespace {

namespace fs = std::filesystem;

ApiError writeError(const std::string& file, const std::string& problem) {
  return makeError(Reason::kBadConfig, "writing kubeconfig \"" + file + "\": " + problem);
}

std::string lastError() { return std::strerror(errno); }

// kubectl's lock: <file>.lock exists while someone writes the file.
class KubeconfigLock {
 public:
  static Result<std::unique_ptr<KubeconfigLock>> acquire(const std::string& file) {
    const std::string path = file + ".lock";
    const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
      return writeError(file, "it is locked (\"" + path +
                                  "\" exists): another kubectl or kubefed-cpp is writing it; "
                                  "remove the lock file if none is");
    }
    if (fd < 0) return writeError(file, "cannot create \"" + path + "\": " + lastError());
    ::close(fd);
    return std::unique_ptr<KubeconfigLock>(new KubeconfigLock(path));
  }
  ~KubeconfigLock() { ::unlink(path_.c_str()); }
  KubeconfigLock(const KubeconfigLock&) = delete;
  KubeconfigLock& operator=(const KubeconfigLock&) = delete;

 private:
  explicit KubeconfigLock(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// The node as it was written: a scalar that was quoted (or explicitly tagged) stays quoted, so
// that a string such as "1234" or "true" is not read back as a number or a boolean.
void emitNode(YAML::Emitter& out, const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (!node.Tag().empty() && node.Tag() != "?") out << YAML::DoubleQuoted;
      out << node.Scalar();
      return;
    case YAML::NodeType::Sequence:
      out << YAML::BeginSeq;
      for (const YAML::Node& item : node) emitNode(out, item);
      out << YAML::EndSeq;
      return;
    case YAML::NodeType::Map:
      out << YAML::BeginMap;
      for (const auto& entry : node) {
        out << YAML::Key;
        emitNode(out, entry.first);
        out << YAML::Value;
        emitNode(out, entry.second);
      }
      out << YAML::EndMap;
      return;
    default:
      out << YAML::Null;
  }
}

Result<YAML::Node> loadYaml(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return writeError(file, "cannot read it: " + lastError());
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    return writeError(file, std::string("it is no longer valid YAML: ") + e.what());
  }
}

Status setValues(YAML::Node& root, const std::string& file, const std::string& user_name,
                 const std::map<std::string, std::string>& values) {
  YAML::Node users = root.IsMap() ? root["users"] : YAML::Node();
  if (users.IsSequence()) {
    for (YAML::Node entry : users) {
      if (!entry.IsMap() || !entry["name"].IsScalar() || entry["name"].Scalar() != user_name) {
        continue;
      }
      YAML::Node provider = entry["user"].IsMap() ? entry["user"]["auth-provider"] : YAML::Node();
      if (!provider.IsMap()) break;
      YAML::Node config = provider["config"];
      if (!config.IsMap()) config = YAML::Node(YAML::NodeType::Map);
      for (const auto& [key, value] : values) {
        YAML::Node quoted(value);
        quoted.SetTag("!");
        config[key] = quoted;
      }
      provider["config"] = config;
      return boost::outcome_v2::success();
    }
  }
  return writeError(file, "it no longer has an auth-provider for user \"" + user_name + "\"");
}

// Writes `text` to a new file next to `target` and renames it over `target`.
Status replaceFile(const fs::path& target, const std::string& text, const std::string& file) {
  struct stat old_stat {};
  if (::stat(target.c_str(), &old_stat) != 0) return writeError(file, "stat: " + lastError());
  std::string temp = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX"));
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return writeError(file, "creating a file next to it: " + lastError());
  if (::fchown(fd, old_stat.st_uid, old_stat.st_gid) != 0) {
    // Only root may give a file away; otherwise the new file belongs to this process's user.
  }
  bool written = ::fchmod(fd, old_stat.st_mode & 07777) == 0;
  for (std::size_t done = 0; written && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    written = n > 0;
    if (written) done += static_cast<std::size_t>(n);
  }
  written = written && ::fsync(fd) == 0;
  const std::string why = written ? "" : lastError();
  ::close(fd);
  if (written && ::rename(temp.c_str(), target.c_str()) == 0) return boost::outcome_v2::success();
  const std::string problem = written ? "replacing it: " + lastError() : "writing: " + why;
  ::unlink(temp.c_str());
  return writeError(file, problem);
}

}  // namespace

Status writeAuthProviderConfig(const std::string& kubeconfig_file, const std::string& user_name,
                               const std::map<std::string, std::string>& values) {
  auto lock = KubeconfigLock::acquire(kubeconfig_file);  // held until the file is replaced
  if (!lock) return lock.error();
  std::error_code ec;
  const fs::path target = fs::canonical(kubeconfig_file, ec);
  if (ec) return writeError(kubeconfig_file, "cannot resolve it: " + ec.message());
  KF_TRY(root, loadYaml(target.string()));
  KF_TRYV(setValues(root, kubeconfig_file, user_name, values));
  YAML::Emitter out;
  emitNode(out, root);
  return replaceFile(target, std::string(out.c_str()) + "\n", kubeconfig_file);
}

}  // namespace kf

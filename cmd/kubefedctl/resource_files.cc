#include "cmd/kubefedctl/resource_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "federation/crdgen/yaml_json.h"

namespace kf::kubefedctl {
namespace {

namespace fs = std::filesystem;

ApiError unreadable(const std::string& what, const std::string& why) {
  return makeError(Reason::kBadConfig, "cannot read " + what + ": " + why);
}

Result<std::string> readFile(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return unreadable("\"" + path + "\"", "it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return unreadable("\"" + path + "\"", std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return unreadable("\"" + path + "\"", std::strerror(errno));
  return text.str();
}

bool isResourceFile(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".json" || extension == ".yaml" || extension == ".yml";
}

Result<std::vector<std::string>> filesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) return unreadable("directory \"" + dir + "\"", error.message());
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) break;
    // Symbolic links count by what they point to; a dangling one is reported when read.
    if (!it->is_directory(error) && isResourceFile(it->path())) {
      files.push_back(it->path().string());
    }
  }
  if (error) return unreadable("directory \"" + dir + "\"", error.message());
  std::sort(files.begin(), files.end());
  return files;
}

// kubectl decodes apiVersion and kind as strings and metadata as a mapping: a document of
// another shape is refused here, so that no command meets one.
Status checkShape(const Json& object, const std::string& source) {
  for (const char* field : {"apiVersion", "kind"}) {
    const auto value = object.find(field);
    if (value != object.end() && !value->is_string()) {
      return makeError(Reason::kInvalid, source + ": " + field + " must be a string, not " +
                                             std::string(value->type_name()));
    }
  }
  const auto metadata = object.find("metadata");
  if (metadata != object.end() && !metadata->is_object()) {
    return makeError(Reason::kInvalid, source + ": metadata must be a mapping, not " +
                                           std::string(metadata->type_name()));
  }
  return boost::outcome_v2::success();
}

bool isList(const Json& object) {
  const std::string kind = object.value("kind", "");
  return kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0 &&
         object.contains("items") && object["items"].is_array();
}

Status append(const Json& document, const std::string& source, std::vector<SourcedObject>& out) {
  if (!document.is_object()) {
    return makeError(Reason::kInvalid, source +
                                           " is not an object (a mapping with kind and "
                                           "apiVersion)");
  }
  KF_TRYV(checkShape(document, source));
  if (!isList(document)) {
    out.push_back({document, source});
    return boost::outcome_v2::success();
  }
  size_t index = 0;
  for (const auto& item : document["items"]) {
    KF_TRYV(append(item, source + " item " + std::to_string(++index), out));
  }
  return boost::outcome_v2::success();
}

}  // namespace

Result<std::vector<SourcedObject>> parseResourceText(const std::string& text,
                                                     const std::string& source) {
  auto documents = yamlDocumentsToJson(text);
  if (!documents) {
    return makeError(Reason::kInvalid, source + ": " + documents.error().message);
  }
  std::vector<SourcedObject> out;
  const bool several = documents.value().size() > 1;
  size_t index = 0;
  for (const auto& document : documents.value()) {
    ++index;
    const std::string where =
        several ? source + " (document " + std::to_string(index) + ")" : source;
    KF_TRYV(append(document, where, out));
  }
  return out;
}

Result<std::vector<SourcedObject>> readResourceFiles(const std::string& path, std::istream& input) {
  if (path == "-") {
    std::ostringstream text;
    text << input.rdbuf();
    return parseResourceText(text.str(), "standard input");
  }
  std::error_code error;
  if (!fs::exists(fs::symlink_status(path, error))) {
    return unreadable("\"" + path + "\"", "no such file or directory");
  }
  std::vector<std::string> files{path};
  if (fs::is_directory(path, error)) {
    KF_TRY(listed, filesIn(path));
    files = std::move(listed);
  }
  std::vector<SourcedObject> out;
  for (const auto& file : files) {
    KF_TRY(text, readFile(file));
    KF_TRY(objects, parseResourceText(text, file));
    for (auto& object : objects) out.push_back(std::move(object));
  }
  return out;
}

}  // namespace kf::kubefedctl

#include "federation/client/kubeconfig_fields.h"

#include <cerrno>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "federation/client/base64.h"

namespace kf::kubeconfig_fields {
namespace {

namespace fs = std::filesystem;

// A plain (unquoted) scalar as YAML 1.2's core schema reads it.
Json plainScalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    return nullptr;
  }
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  Json number = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (number.is_number()) return number;
  return text;
}

}  // namespace

ApiError fileError(const std::string& source, const std::string& problem) {
  return makeError(Reason::kBadConfig, "kubeconfig \"" + source + "\": " + problem);
}

ApiError fieldError(const std::string& source, const std::string& field,
                    const std::string& problem) {
  return fileError(source, field + ": " + problem);
}

std::string entryPath(const char* section, const std::string& name) {
  return std::string(section) + "[name=\"" + name + "\"]";
}

bool isAbsent(const YAML::Node& node) { return !node.IsDefined() || node.IsNull(); }

std::string fieldName(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}

Result<std::string> stringField(const YAML::Node& map, const char* key, const ParseContext& file,
                                const std::string& path) {
  const YAML::Node value = map[key];
  if (isAbsent(value)) return std::string();
  if (!value.IsScalar()) {
    return fieldError(file.source, fieldName(path, key), "expected a string");
  }
  return value.Scalar();
}

Result<bool> boolField(const YAML::Node& map, const char* key, const ParseContext& file,
                       const std::string& path) {
  const YAML::Node value = map[key];
  if (isAbsent(value)) return false;
  bool out = false;
  if (!value.IsScalar() || !YAML::convert<bool>::decode(value, out)) {
    return fieldError(file.source, fieldName(path, key), "expected true or false");
  }
  return out;
}

Result<std::string> dataField(const YAML::Node& map, const char* key, const ParseContext& file,
                              const std::string& path) {
  KF_TRY(encoded, stringField(map, key, file, path));
  if (encoded.empty()) return std::string();
  std::optional<std::string> decoded = base64Decode(encoded);
  if (!decoded) return fieldError(file.source, fieldName(path, key), "invalid base64");
  return std::move(*decoded);
}

Result<std::string> pathField(const YAML::Node& map, const char* key, const ParseContext& file,
                              const std::string& path) {
  KF_TRY(value, stringField(map, key, file, path));
  if (value.empty() || fs::path(value).is_absolute() || file.dir.empty()) return value;
  return (file.dir / value).lexically_normal().string();
}

Result<std::vector<std::string>> stringListField(const YAML::Node& map, const char* key,
                                                 const ParseContext& file,
                                                 const std::string& path) {
  const YAML::Node list = map[key];
  std::vector<std::string> out;
  if (isAbsent(list)) return out;
  if (!list.IsSequence()) {
    return fieldError(file.source, fieldName(path, key), "expected a list of strings");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].IsScalar()) {
      return fieldError(file.source, fieldName(path, key) + "[" + std::to_string(i) + "]",
                        "expected a string");
    }
    out.push_back(list[i].Scalar());
  }
  return out;
}

Result<std::map<std::string, std::vector<std::string>>> stringListMapField(
    const YAML::Node& map, const char* key, const ParseContext& file, const std::string& path) {
  const YAML::Node entries = map[key];
  std::map<std::string, std::vector<std::string>> out;
  if (isAbsent(entries)) return out;
  if (!entries.IsMap()) {
    return fieldError(file.source, fieldName(path, key),
                      "expected a mapping of names to lists of strings");
  }
  for (const auto& entry : entries) {
    if (!entry.first.IsScalar()) {
      return fieldError(file.source, fieldName(path, key), "expected string keys");
    }
    const std::string name = entry.first.Scalar();
    KF_TRY(values, stringListField(entries, name.c_str(), file, fieldName(path, key)));
    out[name] = std::move(values);
  }
  return out;
}

Result<std::string> readWholeFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return makeError(Reason::kBadConfig, "is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno != 0 ? errno : ENOENT;
    return makeError(Reason::kBadConfig, std::generic_category().message(err));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return makeError(Reason::kBadConfig, "read error");
  return contents.str();
}

Result<std::string> readReferencedFile(const std::string& source, const std::string& field,
                                       const std::string& path) {
  auto contents = readWholeFile(path);
  if (!contents) {
    return fieldError(source, field, "cannot read \"" + path + "\": " + contents.error().message);
  }
  return std::move(contents).value();
}

bool looksLikePem(const std::string& text) { return text.find("-----BEGIN ") != std::string::npos; }

Result<std::map<std::string, std::string>> stringMapField(const YAML::Node& map, const char* key,
                                                          const ParseContext& file,
                                                          const std::string& path) {
  const YAML::Node entries = map[key];
  std::map<std::string, std::string> out;
  if (isAbsent(entries)) return out;
  const std::string field = fieldName(path, key);
  if (!entries.IsMap()) return fieldError(file.source, field, "expected a mapping of strings");
  for (const auto& entry : entries) {
    if (!entry.first.IsScalar()) return fieldError(file.source, field, "expected string keys");
    const std::string name = entry.first.Scalar();
    KF_TRY(value, stringField(entries, name.c_str(), file, field));
    out[name] = std::move(value);
  }
  return out;
}

Json yamlToJson(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return nullptr;
  if (node.IsScalar()) return node.Tag() == "!" ? Json(node.Scalar()) : plainScalar(node.Scalar());
  if (node.IsSequence()) {
    Json out = Json::array();
    for (const auto& item : node) out.push_back(yamlToJson(item));
    return out;
  }
  Json out = Json::object();
  for (const auto& entry : node) out[entry.first.Scalar()] = yamlToJson(entry.second);
  return out;
}

}  // namespace kf::kubeconfig_fields

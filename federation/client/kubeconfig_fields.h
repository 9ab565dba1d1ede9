#pragma once
// Reading kubeconfig YAML fields with errors that name the file and the field, e.g.
//   kubeconfig "/x/config": users[name="u"].user.exec.args: expected a list of strings
// Shared by the parts of the kubeconfig reader (entries, authentication).

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/object.h"

namespace kf::kubeconfig_fields {

// The file being parsed: its name for messages and its directory for relative references.
struct ParseContext {
  std::string source;
  std::filesystem::path dir;
};

ApiError fileError(const std::string& source, const std::string& problem);
ApiError fieldError(const std::string& source, const std::string& field,
                    const std::string& problem);

// "users[name=\"u\"]"
std::string entryPath(const char* section, const std::string& name);

bool isAbsent(const YAML::Node& node);

// "clusters[name=\"c\"].cluster" + "server"; top-level keys have no parent path.
std::string fieldName(const std::string& path, const char* key);

// Each reads map[key]; an absent or null value is the empty value.
Result<std::string> stringField(const YAML::Node& map, const char* key, const ParseContext& file,
                                const std::string& path);
Result<bool> boolField(const YAML::Node& map, const char* key, const ParseContext& file,
                       const std::string& path);
// A "-data" field: base64 in the file, raw bytes in memory.
Result<std::string> dataField(const YAML::Node& map, const char* key, const ParseContext& file,
                              const std::string& path);
// A file reference, made absolute against the kubeconfig's own directory like kubectl does, so
// merged configs from different directories keep pointing at the right files.
Result<std::string> pathField(const YAML::Node& map, const char* key, const ParseContext& file,
                              const std::string& path);
Result<std::vector<std::string>> stringListField(const YAML::Node& map, const char* key,
                                                 const ParseContext& file, const std::string& path);
// {key: [values]}, as as-user-extra holds it.
Result<std::map<std::string, std::vector<std::string>>> stringListMapField(const YAML::Node& map,
                                                                           const char* key,
                                                                           const ParseContext& file,
                                                                           const std::string& path);

// A file's whole content; the message of a failed read says why, not which file.
Result<std::string> readWholeFile(const std::string& path);
// A file a kubeconfig field points at, with the error naming both the field and the file.
Result<std::string> readReferencedFile(const std::string& source, const std::string& field,
                                       const std::string& path);
bool looksLikePem(const std::string& text);

// {key: string}, as an auth-provider's config holds it.
Result<std::map<std::string, std::string>> stringMapField(const YAML::Node& map, const char* key,
                                                          const ParseContext& file,
                                                          const std::string& path);

// A YAML node as JSON: plain scalars become null, booleans and numbers where YAML reads them so,
// quoted ones stay strings (an extension's free-form content).
Json yamlToJson(const YAML::Node& node);

}  // namespace kf::kubeconfig_fields

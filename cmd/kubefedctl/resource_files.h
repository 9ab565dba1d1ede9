#pragma once
// The objects of `-f FILE|DIR|-`, read as kubectl's resource builder reads them: every YAML or
// JSON document of a file; every .json, .yaml and .yml file of a directory (not its
// subdirectories), in name order; standard input for "-". A List's items count as objects.

#include <istream>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/object.h"

namespace kf::kubefedctl {

// An object and where it came from, for messages.
struct SourcedObject {
  Json object;
  std::string source;  // "deploy.yaml (document 2)"
};

// Errors name the file (and the document) that could not be read or parsed.
Result<std::vector<SourcedObject>> readResourceFiles(const std::string& path, std::istream& input);

// The objects of one YAML or JSON stream; `source` names it in errors.
Result<std::vector<SourcedObject>> parseResourceText(const std::string& text,
                                                     const std::string& source);

}  // namespace kf::kubefedctl

#pragma once
// Which fields a member object holds differently from what the sync controller wants there, and
// who changed them: the core of drift reports and of server-side apply that yields (issue:
// "drift you can see"). Pure: it reads two objects and decides.
//
// Only what the federated object sets is compared (a field the template leaves out is the
// member's: a default, another controller's), and only where users look: metadata.labels and
// metadata.annotations of the metadata (the rest is the API server's), never status. Objects are
// descended key by key, arrays element by element when both sides have the same length (else the
// array is one difference). Numbers compare as numbers (1 and 1.0 are equal).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/json_reader.h"

namespace kf::sync {

struct FieldDifference {
  std::string path;             // a JSON pointer (RFC 6901), e.g. "/data/greeting"
  std::optional<Json> desired;  // nullopt: not set (never for a leaf the template sets)
  std::optional<Json> live;     // nullopt: absent in the member
};

// The fields `desired` sets that `live` does not hold, in document order; none under an
// `ignored` JSON pointer (a pointer ignores what lies below it too).
std::vector<FieldDifference> differingFields(const Json& desired, const Json& live,
                                             const std::vector<std::string>& ignored = {});

// The field manager that last wrote `path` in `live` (from its metadata.managedFields), other than
// `except` (our own); "" when none of them names it. When several own it, the most recent.
std::string lastWriterOf(const Json& live, std::string_view path, std::string_view except);

struct FieldWrite {
  std::string manager;  // "" when none is known
  std::string time;     // its managedFields entry's time (RFC 3339), "" when none
};
// lastWriterOf, with the time of that manager's managedFields entry: when it last wrote (this
// or another of its fields).
FieldWrite lastWriteOf(const Json& live, std::string_view path, std::string_view except);

// Every field manager that owns `path` in `live` (from its metadata.managedFields), in the order
// of its entries.
std::vector<std::string> ownersOf(const Json& live, std::string_view path);

// A comma-separated list of JSON pointers (the drift-ignore annotation), each trimmed. Fails,
// naming the entry, on one that does not start with "/".
Result<std::vector<std::string>> parsePointerList(std::string_view text);

}  // namespace kf::sync

#pragma once
// JSON Patch (RFC 6902) with the semantics of evanphx/json-patch v4.11, the library KubeFed
// applies overrides with (spec §1.6). Where that library departs from the RFC, this does too,
// because users' overrides (and KubeFed's e2e suite) rely on it:
//   * `replace` of a missing object key creates it (RFC: error); of a missing array index fails;
//   * `add` on an object key creates or overwrites it; on an array, "-" appends, an index in
//     [0, size] inserts and a negative index counts from the end (-1 appends);
//   * `remove` of a missing key or index fails; negative indices count from the end;
//   * every segment before the last must exist and hold an object or array (a null value counts
//     as missing): "doc is missing path";
//   * indices are parsed like Go's strconv.Atoi ("+1" and "01" are 1); "~1" and "~0" decode to
//     "/" and "~"; the text before the first "/" is ignored, and a path without "/" (the empty
//     path included) is missing;
//   * an operation without "value" writes null (add, replace) and `copy` from a missing key
//     copies null;
//   * `test` compares objects one-sidedly: each key of the document's object must be in the
//     value with an equal value, extra keys in the value are ignored; a missing or null target
//     passes only when the value is absent or null.
// Error messages are the library's, e.g.
//   `add operation does not apply: doc is missing path: "/spec/a": missing value`.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/json_reader.h"

namespace kf::sync {

struct JsonPatchOperation {
  std::string op;  // add | remove | replace | move | copy | test
  std::string path;
  std::optional<std::string> from;  // move and copy
  std::optional<Json> value;        // absent: the operation has no "value" member
};

// Applies one operation to `document` in place. On failure `document` may be partly changed
// (a move that removed its source); use applyJsonPatch for all-or-nothing.
Status applyJsonPatchOperation(Json& document, const JsonPatchOperation& operation);

// Applies `operations` in order; on failure `document` is unchanged and the error names the
// operation: "operation[1] (remove /spec/x): error in remove for path: ...".
Status applyJsonPatch(Json& document, const std::vector<JsonPatchOperation>& operations);

// Reads a JSON Patch document (an array of operations). Only the shape is checked here.
Result<std::vector<JsonPatchOperation>> parseJsonPatch(const Json& patch);

}  // namespace kf::sync

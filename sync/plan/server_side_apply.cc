#include "sync/plan/server_side_apply.h"

#include <algorithm>

namespace kf::sync {
namespace {

constexpr std::size_t kMaxFieldsNamed = 10;
constexpr std::string_view kConflictPrefix = "conflict with \"";

bool isOneOf(const std::string& manager, const std::vector<std::string>& managers) {
  return std::find(managers.begin(), managers.end(), manager) != managers.end();
}

// Removes the member at `pointer` (an object's key; a list element is never removed, since that
// would shift the others).
void removeField(Json& object, const std::string& pointer) {
  const Json::json_pointer path(pointer);
  if (path.empty() || !object.contains(path)) return;
  Json& parent = object[path.parent_pointer()];
  if (parent.is_object()) parent.erase(path.back());
}

}  // namespace

std::vector<OwnedField> fieldsOwnedElsewhere(const std::vector<FieldDifference>& differences,
                                             const Json& live,
                                             const std::vector<std::string>& own_managers) {
  std::vector<OwnedField> out;
  for (const FieldDifference& difference : differences) {
    const std::vector<std::string> owners = ownersOf(live, difference.path);
    if (owners.empty()) continue;
    const bool ours = std::any_of(owners.begin(), owners.end(), [&](const std::string& owner) {
      return isOneOf(owner, own_managers);
    });
    if (!ours) out.push_back(OwnedField{difference.path, lastWriterOf(live, difference.path, "")});
  }
  return out;
}

Json applyPatch(const Json& intent, const std::vector<OwnedField>& yielded) {
  Json out = intent;
  out.erase("status");
  if (auto metadata = out.find("metadata"); metadata != out.end() && metadata->is_object()) {
    Json kept = Json::object();
    for (const char* key : {"name", "namespace", "labels", "annotations"}) {
      if (auto found = metadata->find(key); found != metadata->end()) kept[key] = *found;
    }
    *metadata = std::move(kept);
  }
  for (const OwnedField& field : yielded) {
    // A pointer that does not parse names nothing to remove.
    try {
      removeField(out, field.path);
    } catch (const Json::exception&) {
    }
  }
  return out;
}

bool conflictsOnlyWith(const std::vector<StatusCause>& causes,
                       const std::vector<std::string>& own_managers) {
  if (causes.empty()) return false;
  return std::all_of(causes.begin(), causes.end(), [&](const StatusCause& cause) {
    const auto start = cause.message.find(kConflictPrefix);
    if (start == std::string::npos) return false;
    const auto name_start = start + kConflictPrefix.size();
    const auto end = cause.message.find('"', name_start);
    if (end == std::string::npos) return false;
    return isOneOf(cause.message.substr(name_start, end - name_start), own_managers);
  });
}

std::string fieldOwnedElsewhereMessage(const std::string& cluster,
                                       const std::vector<OwnedField>& yielded) {
  std::string out = "Cluster \"" + cluster + "\":";
  for (std::size_t i = 0; i < yielded.size() && i < kMaxFieldsNamed; ++i) {
    out += std::string(i == 0 ? " " : "; ") + yielded[i].path + " is owned by \"" +
           yielded[i].manager + "\"";
  }
  if (yielded.size() > kMaxFieldsNamed) {
    out += "; and " + std::to_string(yielded.size() - kMaxFieldsNamed) + " more fields";
  }
  return out + (yielded.size() == 1 ? "; the controller does not send it there"
                                    : "; the controller does not send them there");
}

}  // namespace kf::sync

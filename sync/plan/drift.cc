#include "sync/plan/drift.h"

namespace kf::sync {
namespace {

constexpr std::size_t kMaxValueChars = 100;
constexpr std::size_t kMaxFieldsNamed = 10;

std::string shown(const std::optional<Json>& value) {
  if (!value) return "absent";
  std::string text = value->dump();
  if (text.size() > kMaxValueChars) text = text.substr(0, kMaxValueChars) + "...";
  return text;
}

}  // namespace

MemberUpdatePlan planMemberUpdate(const MemberPolicy& policy, const MemberState& state) {
  if (!state.changed) return {};
  if (policy.serverSide() && !state.differs) return {.record_member_version = true};
  if (!state.version_recorded) return {.write = true};
  switch (policy.drift) {
    case DriftMode::kRevert:
      return {.write = true};
    case DriftMode::kReportAndRevert:
      return {.write = true, .report = state.differs};
    case DriftMode::kReportOnly:
      if (state.differs) return {.report = true};
      return {.record_member_version = true};
  }
  return {.write = true};
}

std::vector<DriftedField> attributeDrift(const std::vector<FieldDifference>& differences,
                                         const Json& live, std::string_view own_manager,
                                         bool hide_values) {
  const auto shownValue = [hide_values](const std::optional<Json>& value) -> std::optional<Json> {
    if (!value || !hide_values) return value;
    return Json(std::string(kHiddenValue));
  };
  std::vector<DriftedField> out;
  out.reserve(differences.size());
  for (const FieldDifference& difference : differences) {
    FieldWrite write = lastWriteOf(live, difference.path, own_manager);
    out.push_back(DriftedField{difference.path, shownValue(difference.desired),
                               shownValue(difference.live), std::move(write.manager),
                               std::move(write.time)});
  }
  return out;
}

bool hidesDriftValues(const core::ApiResource& target_type) {
  return target_type.group.empty() && target_type.version == "v1" && target_type.kind == "Secret";
}

std::string driftMessage(const std::string& cluster, const std::vector<DriftedField>& fields) {
  std::string out = "Cluster \"" + cluster + "\" drifted from the federated object:";
  for (std::size_t i = 0; i < fields.size() && i < kMaxFieldsNamed; ++i) {
    const DriftedField& field = fields[i];
    out +=
        std::string(i == 0 ? " " : "; ") + field.path + " is " + shown(field.live) + " (desired " +
        shown(field.desired) + ", changed by " +
        (field.manager.empty() ? std::string("an unknown manager") : "\"" + field.manager + "\"") +
        (field.changed_at.empty() ? "" : " at " + field.changed_at) + ")";
  }
  if (fields.size() > kMaxFieldsNamed) {
    out += "; and " + std::to_string(fields.size() - kMaxFieldsNamed) + " more fields";
  }
  return out;
}

}  // namespace kf::sync

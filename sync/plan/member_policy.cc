#include "sync/plan/member_policy.h"

#include "sync/plan/field_diff.h"

namespace kf::sync {
namespace {

constexpr const char* kPolicyAnnotations[] = {kApplyAnnotation, kDriftAnnotation,
                                              kDriftIgnoreAnnotation};

struct Setting {
  std::string value;
  std::string where;  // "the federated object" or "the FederatedTypeConfig"
};

std::optional<Setting> settingOf(const char* key, const StringMap& type_defaults,
                                 const std::optional<StringMap>& own) {
  if (own) {
    if (auto found = own->find(key); found != own->end()) {
      return Setting{found->second, "the federated object"};
    }
  }
  if (auto found = type_defaults.find(key); found != type_defaults.end()) {
    return Setting{found->second, "its FederatedTypeConfig"};
  }
  return std::nullopt;
}

ApiError invalid(const char* key, const Setting& setting, const std::string& what) {
  return makeError(Reason::kInvalid, "annotation " + std::string(key) + " on " + setting.where +
                                         " is \"" + setting.value + "\": " + what);
}

}  // namespace

StringMap policyAnnotations(const std::optional<StringMap>& annotations) {
  StringMap out;
  if (!annotations) return out;
  for (const char* key : kPolicyAnnotations) {
    if (auto found = annotations->find(key); found != annotations->end()) {
      out.insert(*found);
    }
  }
  return out;
}

Result<MemberPolicy> resolveMemberPolicy(const StringMap& type_defaults,
                                         const Json& federated_object) {
  const std::optional<StringMap> own = objectAnnotations(federated_object);
  MemberPolicy policy;
  if (auto apply = settingOf(kApplyAnnotation, type_defaults, own)) {
    if (apply->value == "Update") {
      policy.apply = ApplyMode::kUpdate;
    } else if (apply->value == "ServerSide") {
      policy.apply = ApplyMode::kServerSide;
    } else {
      return invalid(kApplyAnnotation, *apply, "expected Update or ServerSide");
    }
  }
  if (auto drift = settingOf(kDriftAnnotation, type_defaults, own)) {
    if (drift->value == "Revert") {
      policy.drift = DriftMode::kRevert;
    } else if (drift->value == "ReportAndRevert") {
      policy.drift = DriftMode::kReportAndRevert;
    } else if (drift->value == "ReportOnly") {
      policy.drift = DriftMode::kReportOnly;
    } else {
      return invalid(kDriftAnnotation, *drift, "expected Revert, ReportAndRevert or ReportOnly");
    }
  }
  if (auto ignore = settingOf(kDriftIgnoreAnnotation, type_defaults, own)) {
    Result<std::vector<std::string>> pointers = parsePointerList(ignore->value);
    if (!pointers) return invalid(kDriftIgnoreAnnotation, *ignore, pointers.error().message);
    policy.ignored = std::move(pointers.value());
  }
  return policy;
}

}  // namespace kf::sync

#include "federation/scheduling/pod_analysis.h"

#include "apis/meta/field_errors.h"
#include "federation/scheduling/object_fields.h"
#include "federation/scheduling/rfc3339_time.h"

namespace kf::scheduling {

namespace {

using WallTime = std::chrono::system_clock::time_point;

// Go's zero time, which a missing lastTransitionTime decodes to.
constexpr TimeMicros kGoZeroTime = std::chrono::sys_days(std::chrono::year(1) / 1 / 1);

// A string member of `object`; "" when absent or null.
Result<std::string> podString(const Json& object, const char* key, const meta::FieldPath& path) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::string();
  return meta::readString(*it, path.child(key));
}

ApiError inPod(const Json& pod, ApiError error) {
  error.message = "pod " + meta::goQuote(objectKey(pod)) + ": " + error.message;
  return error;
}

// lastTransitionTime; Go's zero time when absent or null.
Result<TimeMicros> transitionTime(const Json& condition, const meta::FieldPath& path) {
  auto it = condition.find("lastTransitionTime");
  if (it == condition.end() || it->is_null()) return kGoZeroTime;
  KF_TRY(text, meta::readString(*it, path.child("lastTransitionTime")));
  auto parsed = parseRfc3339Time(text);
  if (!parsed) {
    return meta::decodeError(path.child("lastTransitionTime"),
                             meta::goQuote(text) + " is not an RFC 3339 time");
  }
  return *parsed;
}

struct PodCounts {
  int running_and_ready = 0;
  int unschedulable_now = 0;
  int unschedulable_long = 0;
};

// KubeFed counts per condition, so a pod listing Ready twice counts twice.
Status countConditions(const Json& conditions, bool running, TimeMicros now, PodCounts& counts) {
  const meta::FieldPath path("status.conditions");
  if (!conditions.is_array()) return meta::decodeError(path, "expected array");
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const Json& condition = conditions[i];
    const auto at = path.index(i);
    if (!condition.is_object()) return meta::decodeError(at, "expected object");
    KF_TRY(type, podString(condition, "type", at));
    if (running) {
      if (type == "Ready") ++counts.running_and_ready;
      continue;
    }
    KF_TRY(status, podString(condition, "status", at));
    KF_TRY(reason, podString(condition, "reason", at));
    if (type != "PodScheduled" || status != "False" || reason != "Unschedulable") continue;
    ++counts.unschedulable_now;
    KF_TRY(since, transitionTime(condition, at));
    if (since + kUnschedulableThreshold < now) ++counts.unschedulable_long;
  }
  return boost::outcome_v2::success();
}

Status countPod(const Json& pod, TimeMicros now, PodCounts& counts) {
  if (!pod.is_object()) return meta::decodeError(meta::FieldPath(), "expected object");
  auto status = pod.find("status");
  if (status == pod.end() || status->is_null()) return boost::outcome_v2::success();
  if (!status->is_object()) return meta::decodeError(meta::FieldPath("status"), "expected object");
  KF_TRY(phase, podString(*status, "phase", meta::FieldPath("status")));
  auto conditions = status->find("conditions");
  if (conditions == status->end() || conditions->is_null()) return boost::outcome_v2::success();
  return countConditions(*conditions, phase == "Running", now, counts);
}

}  // namespace

Result<PodAnalysis> analyzePods(const std::vector<Json>& pods, WallTime now) {
  // Compared in microseconds: Go's zero time is out of system_clock's range.
  const auto now_micros = std::chrono::time_point_cast<std::chrono::microseconds>(now);
  PodCounts counts;
  for (const auto& pod : pods) {
    if (auto counted = countPod(pod, now_micros, counts); !counted) {
      return inPod(pod, std::move(counted).error());
    }
  }
  PodAnalysis out;
  out.total = static_cast<int>(pods.size());
  out.running_and_ready = counts.running_and_ready;
  out.unschedulable = counts.unschedulable_long;
  out.needs_recheck = counts.unschedulable_now != counts.unschedulable_long;
  return out;
}

}  // namespace kf::scheduling

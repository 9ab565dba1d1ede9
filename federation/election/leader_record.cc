#include "federation/election/leader_record.h"

namespace kf {
namespace {

// metav1.Time's JSON: whole seconds in UTC.
Json timeJson(const std::optional<WallTime>& time) {
  if (!time) return nullptr;
  std::string text = formatMicroTime(std::chrono::floor<std::chrono::seconds>(*time));
  text.erase(text.find('.'), 7);  // ".000000"
  return text;
}

ApiError badRecord(const std::string& why) {
  return makeError(Reason::kBadResponse, std::string("the ") + kLeaderAnnotation +
                                             " annotation is not a leader " +
                                             "election record: " + why);
}

Result<std::optional<WallTime>> readTime(const Json& record, const char* key) {
  const auto it = record.find(key);
  if (it == record.end() || it->is_null()) return std::optional<WallTime>();
  if (!it->is_string()) return badRecord(std::string(key) + " is not a string");
  auto time = parseMicroTime(it->get<std::string>());
  if (!time) return badRecord(std::string(key) + " is not an RFC 3339 UTC time");
  return std::optional<WallTime>(*time);
}

Result<std::int64_t> readInt(const Json& record, const char* key) {
  const auto it = record.find(key);
  if (it == record.end() || it->is_null()) return std::int64_t{0};
  if (!it->is_number_integer()) return badRecord(std::string(key) + " is not an integer");
  return it->get<std::int64_t>();
}

}  // namespace

std::string encodeLeaderRecord(const LeaseRecord& record) {
  nlohmann::ordered_json out;
  out["holderIdentity"] = record.holder_identity;
  out["leaseDurationSeconds"] = record.lease_duration_seconds;
  out["acquireTime"] = timeJson(record.acquire_time);
  out["renewTime"] = timeJson(record.renew_time);
  out["leaderTransitions"] = record.lease_transitions;
  return out.dump();
}

Result<LeaseRecord> decodeLeaderRecord(const std::string& text) {
  const Json record = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) return badRecord("not a JSON object");
  LeaseRecord out;
  if (const auto holder = record.find("holderIdentity");
      holder != record.end() && !holder->is_null()) {
    if (!holder->is_string()) return badRecord("holderIdentity is not a string");
    out.holder_identity = holder->get<std::string>();
  }
  KF_TRY(duration, readInt(record, "leaseDurationSeconds"));
  KF_TRY(acquired, readTime(record, "acquireTime"));
  KF_TRY(renewed, readTime(record, "renewTime"));
  KF_TRY(transitions, readInt(record, "leaderTransitions"));
  out.lease_duration_seconds = duration;
  out.acquire_time = acquired;
  out.renew_time = renewed;
  out.lease_transitions = transitions;
  return out;
}

}  // namespace kf

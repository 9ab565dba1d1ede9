#include "sync/plan/rollout_record.h"

#include <charconv>
#include <utility>

#include "apis/meta/json_reader.h"
#include "apis/meta/time.h"

namespace kf::sync {

namespace {

using meta::FieldPath;
using meta::ObjectReader;
using HeldEntry = std::pair<std::string, HeldTemplate>;  // cluster name, what it holds

// Reads `count` digits at `at` into `out`; false when they are not all digits.
bool digits(std::string_view text, std::size_t at, std::size_t count, int& out) {
  if (at + count > text.size()) return false;
  const char* begin = text.data() + at;
  const auto [end, error] = std::from_chars(begin, begin + count, out);
  return error == std::errc() && end == begin + count;
}

Result<WallTime> readTime(ObjectReader& reader, std::string_view key) {
  KF_TRY(text, reader.string(key));
  const std::optional<WallTime> time = parseRfc3339(text);
  if (!time) {
    return meta::decodeError(
        reader.path(key),
        "expected an RFC 3339 time like \"2026-01-02T15:04:05Z\", got " + meta::goQuote(text));
  }
  return *time;
}

Json heldToJson(const std::string& cluster, const HeldTemplate& held) {
  Json out = {
      {"name", cluster}, {"templateHash", held.hash}, {"since", meta::formatTime(held.since)}};
  meta::putIfNotEmpty(out, "version", held.version);
  return out;
}

Result<HeldEntry> heldFromJson(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(name, reader.string("name"));
  if (name.empty()) return meta::decodeError(reader.path("name"), "a cluster name is required");
  KF_TRY(hash, reader.string("templateHash"));
  KF_TRY(since, readTime(reader, "since"));
  KF_TRY(version, reader.string("version"));
  return HeldEntry{std::move(name), HeldTemplate{std::move(hash), since, std::move(version)}};
}

}  // namespace

std::optional<WallTime> parseRfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' ||
      !digits(text, 0, 4, year) || !digits(text, 5, 2, month) || !digits(text, 8, 2, day) ||
      !digits(text, 11, 2, hour) || !digits(text, 14, 2, minute) || !digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  std::size_t at = 19;
  if (text[at] == '.') {  // fractions of a second: dropped
    ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  }
  int offset_minutes = 0;
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z') && at + 1 == text.size()) {
    offset_minutes = 0;
  } else if (at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && text[at + 3] == ':') {
    int offset_hours = 0, offset_rest = 0;
    if (!digits(text, at + 1, 2, offset_hours) || !digits(text, at + 4, 2, offset_rest)) {
      return std::nullopt;
    }
    offset_minutes = (text[at] == '-' ? -1 : 1) * (offset_hours * 60 + offset_rest);
  } else {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  const std::chrono::sys_seconds time =
      std::chrono::sys_days(date) + std::chrono::hours(hour) + std::chrono::minutes(minute) +
      std::chrono::seconds(second) - std::chrono::minutes(offset_minutes);
  return WallTime(std::chrono::duration_cast<WallTime::duration>(time.time_since_epoch()));
}

Json runRecordToJson(const RunRecord& record) {
  Json out = {{"templateHash", record.template_hash},
              {"stage", static_cast<std::int64_t>(record.stage)}};
  meta::putIfNotEmpty(out, "previousTemplateHash", record.previous_hash);
  if (record.stage_healthy_since) {
    out["stageHealthySince"] = meta::formatTime(*record.stage_healthy_since);
  }
  meta::putIfNotEmpty(out, "failure", record.failure);
  if (record.rolled_back) out["rolledBack"] = true;
  Json clusters = Json::array();
  for (const auto& [cluster, held] : record.clusters) clusters.push_back(heldToJson(cluster, held));
  out["clusters"] = std::move(clusters);
  return out;
}

Result<RunRecord> runRecordFromJson(const Json& status, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(status, path));
  RunRecord record;
  KF_TRY(hash, reader.string("templateHash"));
  KF_TRY(previous, reader.string("previousTemplateHash"));
  KF_TRY(stage, reader.int64("stage"));
  if (stage < 0) return meta::decodeError(reader.path("stage"), "must be 0 or more");
  record.template_hash = std::move(hash);
  record.previous_hash = std::move(previous);
  record.stage = static_cast<std::size_t>(stage);
  if (reader.plainValue("stageHealthySince") != nullptr) {
    KF_TRY(since, readTime(reader, "stageHealthySince"));
    record.stage_healthy_since = since;
  }
  KF_TRY(failure, reader.string("failure"));
  KF_TRY(rolled_back, reader.boolean("rolledBack"));
  record.failure = std::move(failure);
  record.rolled_back = rolled_back;
  if (const Json* clusters = reader.plainValue("clusters")) {
    KF_TRY(held, meta::readArray<HeldEntry>(*clusters, reader.path("clusters"), heldFromJson));
    for (auto& [cluster, entry] : held) record.clusters[cluster] = std::move(entry);
  }
  return record;
}

}  // namespace kf::sync

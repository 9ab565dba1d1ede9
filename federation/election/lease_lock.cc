#include "federation/election/lease_lock.h"

#include <cstdio>
#include <ctime>
#include <utility>

namespace kf {

const GroupVersionResource kLeaseResource{"coordination.k8s.io", "v1", "leases", true};

namespace {

std::optional<WallTime> timeField(const Json& spec, const char* key) {
  if (!spec.contains(key) || !spec[key].is_string()) return std::nullopt;
  return parseMicroTime(spec[key].get<std::string>());
}

std::int64_t intField(const Json& spec, const char* key) {
  if (!spec.contains(key) || !spec[key].is_number_integer()) return 0;
  return spec[key].get<std::int64_t>();
}

}  // namespace

std::string formatMicroTime(WallTime time) {
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  using std::chrono::seconds;
  const auto since_epoch = duration_cast<microseconds>(time.time_since_epoch());
  auto whole = duration_cast<seconds>(since_epoch);
  auto micros = since_epoch - whole;
  if (micros.count() < 0) {  // before 1970: borrow a second so the fraction stays positive
    whole -= seconds(1);
    micros += seconds(1);
  }
  const std::time_t t = static_cast<std::time_t>(whole.count());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long>(micros.count()));
  return buffer;
}

std::optional<WallTime> parseMicroTime(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  std::size_t pos = static_cast<std::size_t>(consumed);
  std::int64_t micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    int digits = 0;
    for (++pos; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++digits) {
      if (digits < 6) micros = micros * 10 + (text[pos] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 6; ++digits) micros *= 10;
  }
  if (pos + 1 != text.size() || text[pos] != 'Z') return std::nullopt;
  const std::time_t seconds = timegm(&tm);
  return WallTime(std::chrono::seconds(seconds)) + std::chrono::microseconds(micros);
}

Json leaseSpecToJson(const LeaseRecord& record) {
  Json spec = Json::object();
  spec["holderIdentity"] = record.holder_identity;
  spec["leaseDurationSeconds"] = record.lease_duration_seconds;
  if (record.acquire_time) spec["acquireTime"] = formatMicroTime(*record.acquire_time);
  if (record.renew_time) spec["renewTime"] = formatMicroTime(*record.renew_time);
  spec["leaseTransitions"] = record.lease_transitions;
  return spec;
}

LeaseRecord leaseRecordFromJson(const Json& lease) {
  LeaseRecord record;
  if (!lease.contains("spec") || !lease["spec"].is_object()) return record;
  const Json& spec = lease["spec"];
  if (spec.contains("holderIdentity") && spec["holderIdentity"].is_string()) {
    record.holder_identity = spec["holderIdentity"].get<std::string>();
  }
  record.lease_duration_seconds = intField(spec, "leaseDurationSeconds");
  record.acquire_time = timeField(spec, "acquireTime");
  record.renew_time = timeField(spec, "renewTime");
  record.lease_transitions = intField(spec, "leaseTransitions");
  return record;
}

LeaseLock::LeaseLock(RestClient& client, std::string ns, std::string name)
    : leases_(client, kLeaseResource, ns), namespace_(std::move(ns)), name_(std::move(name)) {}

Result<VersionedLease> LeaseLock::get() { return remember(leases_.get(name_)); }

Result<VersionedLease> LeaseLock::create(const LeaseRecord& record) {
  return remember(leases_.create(toObject(record, "")));
}

Result<VersionedLease> LeaseLock::update(const LeaseRecord& record,
                                         const std::string& resource_version) {
  return remember(leases_.update(toObject(record, resource_version)));
}

std::vector<ObjectReference> LeaseLock::eventTargets() const {
  if (!last_.is_object()) return {};
  return {referenceTo(last_)};
}

Result<VersionedLease> LeaseLock::remember(Result<Json> lease) {
  if (!lease) return std::move(lease).error();
  last_ = std::move(lease).value();
  return VersionedLease{leaseRecordFromJson(last_), objectResourceVersion(last_),
                        last_.value("spec", Json::object()).dump()};
}

Json LeaseLock::toObject(const LeaseRecord& record, const std::string& resource_version) const {
  // An update keeps what else the Lease carries (labels, annotations, owner references).
  Json metadata = last_.is_object() && !resource_version.empty()
                      ? last_.value("metadata", Json::object())
                      : Json::object();
  metadata["name"] = name_;
  metadata["namespace"] = namespace_;
  // Without a resourceVersion a PUT would overwrite unconditionally; with it, it is a
  // compare-and-swap against what this candidate last read.
  if (!resource_version.empty()) metadata["resourceVersion"] = resource_version;
  return {{"apiVersion", kLeaseResource.apiVersion()},
          {"kind", "Lease"},
          {"metadata", std::move(metadata)},
          {"spec", leaseSpecToJson(record)}};
}

}  // namespace kf

#include "bench/fleet/arrivals.h"

namespace kf::bench {
namespace {

// member1 -> 0; -1 for a name the benchmark did not give.
int memberIndex(const std::string& name) {
  constexpr std::string_view kPrefix = "member";
  if (name.rfind(kPrefix, 0) != 0) return -1;
  return std::atoi(name.c_str() + kPrefix.size()) - 1;
}

}  // namespace

std::string revisionKey(const std::string& name, const std::string& rev) {
  return name + "@" + rev;
}

sim::WriteObserver Arrivals::observer() {
  return [this](const sim::WriteRecord& write) {
    if (write.type == sim::EventType::kDeleted) return;
    const auto at = Clock::now();
    const int member = memberIndex(write.member);
    if (write.resource.plural == "namespaces") {
      record(member, objectName(write.object), at);
    } else if (write.resource.plural == "configmaps") {
      const auto data = write.object.find("data");
      std::string rev;
      if (data != write.object.end() && data->is_object()) rev = data->value("rev", "");
      record(member, revisionKey(objectName(write.object), rev), at);
    }
  };
}

void Arrivals::record(int member, const std::string& key, Clock::time_point at) {
  if (member < 0 || member >= members_) return;
  std::lock_guard lock(mu_);
  Entry& entry = entries_[key];
  if (entry.at.empty()) entry.at.resize(static_cast<std::size_t>(members_));
  auto& slot = entry.at[static_cast<std::size_t>(member)];
  if (slot != Clock::time_point{}) return;  // a later write of the same revision
  slot = at;
  entry.last = std::max(entry.last, at);
  if (++entry.count == members_) changed_.notify_all();
}

bool Arrivals::waitForAll(const std::string& key, Clock::time_point deadline) {
  std::unique_lock lock(mu_);
  return changed_.wait_until(lock, deadline, [&] {
    const auto found = entries_.find(key);
    return found != entries_.end() && found->second.count == members_;
  });
}

Clock::time_point Arrivals::lastArrival(const std::string& key) {
  std::lock_guard lock(mu_);
  return entries_[key].last;
}

std::vector<Clock::time_point> Arrivals::arrivals(const std::string& key) {
  std::lock_guard lock(mu_);
  const Entry& entry = entries_[key];
  return entry.count == members_ ? entry.at : std::vector<Clock::time_point>{};
}

int Arrivals::count(const std::string& key) {
  std::lock_guard lock(mu_);
  return entries_[key].count;
}

}  // namespace kf::bench

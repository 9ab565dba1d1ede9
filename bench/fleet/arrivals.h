#pragma once
// When each simulated member stored each version of the benchmark's objects: the members'
// stores report every write (sim::WriteObserver), and the benchmark waits on and reads these
// times. Times are taken in the members' process when the write is stored, so a watch's delay
// is not part of them.

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tests/support/simulated_member/member_store.h"

namespace kf::bench {

using Clock = std::chrono::steady_clock;

class Arrivals {
 public:
  explicit Arrivals(int members) : members_(members) {}

  // The observer to give the simulated members: records ConfigMaps by "name@rev" (rev: their
  // data.rev) and Namespaces by name, once per member.
  sim::WriteObserver observer();

  // Waits until every member holds `key`, at most until `deadline`; returns whether they do.
  bool waitForAll(const std::string& key, Clock::time_point deadline);
  // When the last member stored `key`, and when each did (empty when not every member has).
  Clock::time_point lastArrival(const std::string& key);
  std::vector<Clock::time_point> arrivals(const std::string& key);
  // How many members hold `key`.
  int count(const std::string& key);

 private:
  struct Entry {
    std::vector<Clock::time_point> at;  // per member; time_point{} until it arrives
    int count = 0;
    Clock::time_point last;
  };
  void record(int member, const std::string& key, Clock::time_point at);

  const int members_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, Entry> entries_;
};

// "name@rev" for a ConfigMap revision the benchmark writes.
std::string revisionKey(const std::string& name, const std::string& rev);

}  // namespace kf::bench

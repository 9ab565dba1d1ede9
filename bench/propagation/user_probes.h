// Users during a restart backlog: while the restarted controller manager re-checks every
// federated object, a few users' writes (new FederatedConfigMaps, and edits of existing ones)
// and the time each takes to reach every member. The member objects are watched through a label
// that only the probes' templates carry, so the watch sees the probes and not the backlog.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "federation/informer/shared_informer.h"

namespace kf::bench {

struct ProbeFigures {
  std::vector<double> create_seconds;  // request sent -> in every member
  std::vector<double> edit_seconds;    // request sent -> the edit in every member
  int failed = 0;                      // requests refused, or not arrived by the deadline
};

class UserProbes {
 public:
  // `tag` tells this run's probes from an earlier run's (a restart each); `existing` is how many
  // bench-<i> FederatedConfigMaps there are to edit.
  UserProbes(const std::string& kubeconfig, const std::vector<std::string>& members, std::string ns,
             std::string tag, long existing);
  ~UserProbes();
  UserProbes(const UserProbes&) = delete;
  UserProbes& operator=(const UserProbes&) = delete;

  // Starts watching the members; false when a watch did not sync within a minute.
  bool watch();
  // Sends `count` probes, creates and edits in turn, `spacing` apart; returns when all are sent.
  void send(int count, std::chrono::milliseconds spacing);
  // Waits until every probe sent arrived or `timeout` passed, and returns the figures.
  ProbeFigures collect(std::chrono::seconds timeout);

 private:
  using Clock = std::chrono::steady_clock;
  struct Expected {
    std::string payload;
    bool edit = false;
    Clock::time_point sent;
    std::map<std::string, Clock::time_point> arrived;  // by member
    bool failed = false;
  };

  void seen(const std::string& member, const Json& object);
  bool sendOne(int index);

  const std::vector<std::string> members_;
  const std::string ns_;
  const std::string tag_;
  const long existing_;
  std::unique_ptr<RestClient> host_;
  std::vector<std::unique_ptr<RestClient>> member_clients_;
  std::vector<std::unique_ptr<SharedInformer>> informers_;
  std::mutex mu_;
  std::map<std::string, Expected> expected_;  // by object name
};

}  // namespace kf::bench

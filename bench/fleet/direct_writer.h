#pragma once
// The fleet benchmark's baseline: a program that writes the same objects straight into every
// simulated member, one writer thread per member, each with its own client at the controller's
// member-client limits (as the controller has one client per member and writes to clusters in
// parallel). What the controller adds on top of this is the cost of federation.

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "federation/client/rest_client.h"
#include "tests/support/simulated_member/simulated_members.h"

namespace kf::bench {

class DirectWriter {
 public:
  DirectWriter(const std::vector<sim::SimulatedMember>& members, const std::string& ca_pem,
               double qps, int burst);
  ~DirectWriter();
  DirectWriter(const DirectWriter&) = delete;
  DirectWriter& operator=(const DirectWriter&) = delete;

  // Runs `work(member index, client)` on every member's writer at once; returns when every one
  // is done, true when every one returned true.
  bool onEveryMember(const std::function<bool(std::size_t, RestClient&)>& work);

 private:
  void serve(std::size_t index);

  std::vector<std::unique_ptr<RestClient>> clients_;
  std::vector<std::thread> writers_;
  std::mutex mu_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::function<bool(std::size_t, RestClient&)> work_;
  std::uint64_t round_ = 0;
  std::size_t pending_ = 0;
  bool failed_ = false;
  bool stopping_ = false;
};

}  // namespace kf::bench

#include "bench/fleet/direct_writer.h"

#include <cstdio>
#include <cstdlib>

namespace kf::bench {

DirectWriter::DirectWriter(const std::vector<sim::SimulatedMember>& members,
                           const std::string& ca_pem, double qps, int burst) {
  for (const auto& member : members) {
    RestConfig config;
    config.server = member.server();
    config.tls.ca_pem = ca_pem;
    config.bearer_token = member.token;
    config.qps = qps;
    config.burst = burst;
    auto client = RestClient::create(config, realClock());
    if (!client) {
      std::fprintf(stderr, "direct writer for %s: %s\n", member.name.c_str(),
                   client.error().describe().c_str());
      std::exit(1);
    }
    clients_.push_back(std::move(client).value());
  }
  for (std::size_t i = 0; i < clients_.size(); ++i) writers_.emplace_back([this, i] { serve(i); });
}

DirectWriter::~DirectWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& writer : writers_) writer.join();
}

bool DirectWriter::onEveryMember(const std::function<bool(std::size_t, RestClient&)>& work) {
  std::unique_lock lock(mu_);
  work_ = work;
  pending_ = clients_.size();
  failed_ = false;
  ++round_;
  start_.notify_all();
  done_.wait(lock, [this] { return pending_ == 0; });
  return !failed_;
}

void DirectWriter::serve(std::size_t index) {
  std::uint64_t seen = 0;
  while (true) {
    std::function<bool(std::size_t, RestClient&)> work;
    {
      std::unique_lock lock(mu_);
      start_.wait(lock, [&] { return stopping_ || round_ != seen; });
      if (stopping_) return;
      seen = round_;
      work = work_;
    }
    const bool ok = work(index, *clients_[index]);
    std::lock_guard lock(mu_);
    if (!ok) failed_ = true;
    if (--pending_ == 0) done_.notify_all();
  }
}

}  // namespace kf::bench

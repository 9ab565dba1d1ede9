#include "federation/events/event_recorders.h"

#include <vector>

namespace kf {

EventRecorders::EventRecorders(RestClient& host, std::string host_name, Clock& clock,
                               EventRecorderOptions options)
    : host_(host), host_name_(std::move(host_name)), clock_(clock), options_(options) {}

EventRecorders::~EventRecorders() { stopAll(); }

std::shared_ptr<ApiEventRecorder> EventRecorders::forComponent(const std::string& component) {
  MutexLock lock(mu_);
  auto& recorder = recorders_[component];
  if (!recorder) {
    recorder = std::make_shared<ApiEventRecorder>(host_, component, host_name_, clock_, options_);
  }
  return recorder;
}

void EventRecorders::stopAll() {
  std::vector<std::shared_ptr<ApiEventRecorder>> recorders;
  {
    MutexLock lock(mu_);
    for (const auto& [component, recorder] : recorders_) recorders.push_back(recorder);
  }
  // Ask all first so they drain in parallel, then wait for each.
  for (const auto& recorder : recorders) recorder->requestStop();
  for (const auto& recorder : recorders) recorder->stop();
}

}  // namespace kf

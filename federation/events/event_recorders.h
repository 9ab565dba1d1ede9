#pragma once
// One ApiEventRecorder per component name, shared by every controller of that component (as
// each KubeFed controller has one recorder for its component), created on first use.

#include <map>
#include <memory>
#include <string>

#include "federation/events/api_event_recorder.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class EventRecorders {
 public:
  // `host` must outlive this object and every recorder it hands out.
  EventRecorders(RestClient& host, std::string host_name, Clock& clock,
                 EventRecorderOptions options = {});
  ~EventRecorders();  // stopAll()

  // The recorder of `component` (e.g. "federateddeployment-controller"). Thread-safe.
  std::shared_ptr<ApiEventRecorder> forComponent(const std::string& component);
  // Stops every recorder (draining each as ApiEventRecorder::stop does). Recorders still
  // referenced elsewhere drop later events.
  void stopAll();

 private:
  RestClient& host_;
  const std::string host_name_;
  Clock& clock_;
  const EventRecorderOptions options_;
  Mutex mu_;
  std::map<std::string, std::shared_ptr<ApiEventRecorder>> recorders_ KF_GUARDED_BY(mu_);
};

}  // namespace kf

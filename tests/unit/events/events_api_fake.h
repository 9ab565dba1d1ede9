#pragma once
// A Transport standing in for the host API's events endpoints in unit tests: records every
// request, answers POST with 201 and PATCH with 200 unless a reply was scripted, and can hold
// requests until the test releases them (to keep the recorder's sender busy).

#include <chrono>
#include <condition_variable>
#include <deque>
#include <vector>

#include "federation/client/transport.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class EventsApiFake final : public Transport {
 public:
  // Requests from now on wait in roundTrip() until release().
  void hold() {
    MutexLock lock(mu_);
    held_ = true;
  }
  void release() {
    {
      MutexLock lock(mu_);
      held_ = false;
    }
    changed_.notify_all();
  }
  // The next request gets this reply instead of the default one.
  void script(HttpResponse reply) {
    MutexLock lock(mu_);
    scripted_.push_back(std::move(reply));
  }

  // Waits until `count` requests arrived (a deadline guards against a hung test only).
  bool waitForRequests(std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    MutexLock lock(mu_);
    while (requests_.size() < count) {
      if (changed_.wait_until(lock.native(), deadline) == std::cv_status::timeout) break;
    }
    return requests_.size() >= count;
  }
  std::vector<HttpRequest> requests() {
    MutexLock lock(mu_);
    return requests_;
  }

  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    MutexLock lock(mu_);
    requests_.push_back(request);
    changed_.notify_all();
    while (held_) changed_.wait(lock.native());
    if (!scripted_.empty()) {
      HttpResponse reply = std::move(scripted_.front());
      scripted_.pop_front();
      return reply;
    }
    return HttpResponse{request.method == "POST" ? 201 : 200, {}, request.body};
  }
  Result<ResponseStreamPtr> openStream(const HttpRequest&) override {
    return makeError(Reason::kConnectionFailed, "streams are not part of the events API");
  }

 private:
  Mutex mu_;
  std::condition_variable changed_;
  bool held_ KF_GUARDED_BY(mu_) = false;
  std::deque<HttpResponse> scripted_ KF_GUARDED_BY(mu_);
  std::vector<HttpRequest> requests_ KF_GUARDED_BY(mu_);
};

inline HttpResponse apiStatus(int code, const std::string& reason, const std::string& message) {
  const std::string body = R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":")" +
                           reason + R"(","message":")" + message + R"(","code":)" +
                           std::to_string(code) + "}";
  return HttpResponse{code, {{"content-type", "application/json"}}, body};
}

}  // namespace kf::test

#pragma once
// A scripted Transport for unit tests: answers requests from a queue and records them.

#include <deque>
#include <vector>

#include "federation/client/transport.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class FakeTransport final : public Transport {
 public:
  void enqueue(Result<HttpResponse> response) {
    MutexLock lock(mu_);
    responses_.push_back(std::move(response));
  }
  std::vector<HttpRequest> requests() {
    MutexLock lock(mu_);
    return requests_;
  }

  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    MutexLock lock(mu_);
    requests_.push_back(request);
    if (responses_.empty()) return makeError(Reason::kConnectionFailed, "no scripted response");
    auto response = std::move(responses_.front());
    responses_.pop_front();
    return response;
  }
  Result<ResponseStreamPtr> openStream(const HttpRequest&) override {
    return makeError(Reason::kConnectionFailed, "streams are not scripted");
  }

 private:
  Mutex mu_;
  std::deque<Result<HttpResponse>> responses_ KF_GUARDED_BY(mu_);
  std::vector<HttpRequest> requests_ KF_GUARDED_BY(mu_);
};

inline HttpResponse response(int status, std::string body,
                             std::map<std::string, std::string> headers = {}) {
  return HttpResponse{status, std::move(headers), std::move(body)};
}

}  // namespace kf::test

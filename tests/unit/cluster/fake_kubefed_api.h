#pragma once
// Fakes for KubeFedCluster controller unit tests: a host API that serves KubeFedClusters from
// memory (list, and status updates with resourceVersion checks), and member API servers whose
// /healthz answer the test sets.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "federation/client/transport.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

// A Transport that answers every request with a function (and never streams).
class FunctionTransport final : public Transport {
 public:
  using Handler = std::function<Result<HttpResponse>(const HttpRequest&)>;
  explicit FunctionTransport(Handler handler) : handler_(std::move(handler)) {}
  Result<HttpResponse> roundTrip(const HttpRequest& request) override { return handler_(request); }
  Result<ResponseStreamPtr> openStream(const HttpRequest&) override {
    return makeError(Reason::kConnectionFailed, "the fake API does not stream");
  }

 private:
  Handler handler_;
};

inline RestConfig fakeConfig() {
  RestConfig config;
  config.server = "https://127.0.0.1:6443";
  config.qps = 0;  // no client-side throttling on the fake clock
  return config;
}

inline HttpResponse jsonResponse(int status, const Json& body) {
  return HttpResponse{status, {{"content-type", "application/json"}}, body.dump()};
}

// KubeFedClusters in one namespace of a host API server.
class FakeKubeFedHost {
 public:
  FakeKubeFedHost(std::string ns, Clock& clock) : namespace_(std::move(ns)) {
    client_ = std::make_unique<RestClient>(
        fakeConfig(),
        std::make_unique<FunctionTransport>([this](const HttpRequest& r) { return handle(r); }),
        clock, RetryPolicy{.max_attempts = 1});
  }

  RestClient& client() { return *client_; }

  // Creates or replaces a KubeFedCluster (a new resourceVersion); returns it as stored.
  Json put(Json object) {
    MutexLock lock(mu_);
    object["apiVersion"] = "core.kubefed.io/v1beta1";
    object["kind"] = "KubeFedCluster";
    object["metadata"]["namespace"] = namespace_;
    object["metadata"]["resourceVersion"] = std::to_string(++revision_);
    clusters_[object["metadata"]["name"].get<std::string>()] = object;
    return object;
  }
  void erase(const std::string& name) {
    MutexLock lock(mu_);
    clusters_.erase(name);
  }
  Json get(const std::string& name) {
    MutexLock lock(mu_);
    return clusters_.at(name);
  }
  int statusWrites() {
    MutexLock lock(mu_);
    return status_writes_;
  }
  void failLists(bool fail) {
    MutexLock lock(mu_);
    fail_lists_ = fail;
  }

 private:
  std::string collection() const {
    return "/apis/core.kubefed.io/v1beta1/namespaces/" + namespace_ + "/kubefedclusters";
  }

  Result<HttpResponse> handle(const HttpRequest& request) {
    MutexLock lock(mu_);
    const std::string path = request.target.substr(0, request.target.find('?'));
    if (request.method == "GET" && path == collection()) {
      if (fail_lists_) return jsonResponse(500, {{"kind", "Status"}, {"code", 500}});
      Json items = Json::array();
      for (const auto& [name, object] : clusters_) items.push_back(object);
      return jsonResponse(200, {{"kind", "KubeFedClusterList"},
                                {"apiVersion", "core.kubefed.io/v1beta1"},
                                {"metadata", {{"resourceVersion", std::to_string(revision_)}}},
                                {"items", items}});
    }
    const std::string prefix = collection() + "/";
    if (request.method == "PUT" && request.target.starts_with(prefix) &&
        request.target.ends_with("/status")) {
      return updateStatusLocked(
          request.target.substr(prefix.size(), request.target.size() - prefix.size() - 7),
          Json::parse(request.body));
    }
    return jsonResponse(404, {{"kind", "Status"}, {"reason", "NotFound"}, {"code", 404}});
  }

  Result<HttpResponse> updateStatusLocked(const std::string& name, const Json& body)
      KF_REQUIRES(mu_) {
    auto it = clusters_.find(name);
    if (it == clusters_.end()) {
      return jsonResponse(404, {{"kind", "Status"}, {"reason", "NotFound"}, {"code", 404}});
    }
    if (body["metadata"]["resourceVersion"] != it->second["metadata"]["resourceVersion"]) {
      return jsonResponse(409, {{"kind", "Status"}, {"reason", "Conflict"}, {"code", 409}});
    }
    ++status_writes_;
    it->second["status"] = body["status"];
    it->second["metadata"]["resourceVersion"] = std::to_string(++revision_);
    return jsonResponse(200, it->second);
  }

  const std::string namespace_;
  std::unique_ptr<RestClient> client_;
  Mutex mu_;
  std::map<std::string, Json> clusters_ KF_GUARDED_BY(mu_);
  int revision_ KF_GUARDED_BY(mu_) = 0;
  int status_writes_ KF_GUARDED_BY(mu_) = 0;
  bool fail_lists_ KF_GUARDED_BY(mu_) = false;
};

// One member API server's /healthz: answers what the test last set.
class FakeMember {
 public:
  explicit FakeMember(Clock& clock) {
    auto transport = [this](const HttpRequest& request) -> Result<HttpResponse> {
      std::function<void()> hook;
      {
        MutexLock lock(mu_);
        ++probes_;
        hook = on_probe_;
      }
      if (hook) hook();
      MutexLock lock(mu_);
      if (request.target != "/healthz") return makeError(Reason::kBadResponse, "unexpected path");
      return answer_;
    };
    probe_ =
        std::make_shared<RestClient>(fakeConfig(), std::make_unique<FunctionTransport>(transport),
                                     clock, RetryPolicy{.max_attempts = 1});
    client_ = std::make_shared<RestClient>(fakeConfig(),
                                           std::make_unique<FunctionTransport>(transport), clock);
  }

  void answer(Result<HttpResponse> answer) {
    MutexLock lock(mu_);
    answer_ = std::move(answer);
  }
  void healthy() { answer(HttpResponse{200, {}, "ok"}); }
  void unhealthy() { answer(HttpResponse{200, {}, "[-]etcd failed"}); }
  void unreachable() {
    answer(makeError(Reason::kConnectionFailed, "connecting failed: Connection refused"));
  }
  // Runs on the probing thread before each answer (outside the fake's lock).
  void onProbe(std::function<void()> hook) {
    MutexLock lock(mu_);
    on_probe_ = std::move(hook);
  }
  int probes() {
    MutexLock lock(mu_);
    return probes_;
  }

  std::shared_ptr<RestClient> probeClient() const { return probe_; }
  std::shared_ptr<RestClient> sharedClient() const { return client_; }

 private:
  Mutex mu_;
  Result<HttpResponse> answer_ KF_GUARDED_BY(mu_) = HttpResponse{200, {}, "ok"};
  int probes_ KF_GUARDED_BY(mu_) = 0;
  std::function<void()> on_probe_ KF_GUARDED_BY(mu_);
  std::shared_ptr<RestClient> probe_;
  std::shared_ptr<RestClient> client_;
};

}  // namespace kf::test

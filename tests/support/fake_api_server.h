#pragma once
// One in-memory Kubernetes API server for unit tests, reached through the client's Transport, so
// RestClient, ResourceClient, informers and controllers run unchanged against it:
//   * an object tracker with resourceVersions: get, list, create, update, status updates, JSON
//     merge patches and deletes (finalizers keep a deleted object until they are gone);
//   * list and watch with label selectors and resourceVersions (a watch from a compacted
//     resourceVersion gets 410 Gone), watches the test can end;
//   * scripted failures of matching requests, scripted responses, latency on the injected clock,
//     requests held until released, an unreachable mode, /healthz;
//   * a log of every request and of the writes it accepted.
// It stores what it is given: no schema, no defaulting, no admission.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "federation/client/transport.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

// Which requests a scripted behaviour applies to; empty fields match anything.
struct RequestMatch {
  std::string method;         // "GET", "POST", "PUT", "PATCH", "DELETE"
  std::string path_contains;  // e.g. "/configmaps" or "/status"
  bool watch = false;         // only watch requests (else: only non-watch requests)
};

class FakeApiServer {
 public:
  explicit FakeApiServer(Clock& clock);
  // Ends every open watch.
  ~FakeApiServer();
  FakeApiServer(const FakeApiServer&) = delete;
  FakeApiServer& operator=(const FakeApiServer&) = delete;

  // Resources (plural names) whose status is a subresource: writes to the object keep the stored
  // status, writes to /status change only the status, as for CRDs with subresources.status.
  void enableStatusSubresource(const std::string& plural);
  // Creating a namespaced object fails with NotFound unless its Namespace exists, as on a real
  // server (off by default).
  void requireNamespaces(bool required);

  // A transport to this server, which must outlive it; and a client over one (no client-side
  // rate limit).
  TransportPtr transport();
  std::shared_ptr<RestClient> client(RetryPolicy retry = {.max_attempts = 1});

  // The store as another writer changes it; watches see the change. put() creates or replaces
  // and returns what it stored.
  Json put(const GroupVersionResource& resource, Json object);
  std::optional<Json> get(const GroupVersionResource& resource, const std::string& ns,
                          const std::string& name) const;
  std::vector<Json> list(const GroupVersionResource& resource, const std::string& ns = "") const;
  // Removes the object at once, whatever its finalizers.
  void remove(const GroupVersionResource& resource, const std::string& ns, const std::string& name);

  // The next `times` requests matching `match` fail with HTTP `code` and a Status of `reason`.
  void failNext(RequestMatch match, int code, std::string reason, int times = 1,
                std::map<std::string, std::string> headers = {});
  // The next request that reaches the server, whatever it is, gets this answer (responses are
  // used in the order given; a connection-level error is returned as the transport's error).
  // Scripted answers are taken by requests as they arrive, before latency and holds.
  void respondNext(Result<HttpResponse> response);
  // Every request waits this long on the clock before it is served.
  void setLatency(Duration latency);
  // Requests wait (in real time) until release(); requests() shows them meanwhile.
  void hold();
  void release();
  // Every request fails as a refused connection.
  void setUnreachable(bool unreachable);
  // What GET /healthz answers (default 200 "ok").
  void setHealthz(int status, std::string body);
  // Called with each request as it arrives, before it is served (outside the server's lock).
  void onRequest(std::function<void(const HttpRequest&)> hook);

  // Ends every open watch cleanly (a reflector re-watches).
  void closeWatches();
  // Forgets the change history: a watch from an older resourceVersion gets 410 Gone.
  void compact();
  std::size_t openWatches() const;

  // Every request that reached the server, in order.
  std::vector<HttpRequest> requests() const;
  // Every change a request made, in order, as "<ADDED|MODIFIED|DELETED> <plural>/<key>" (e.g.
  // "MODIFIED configmaps/ns/a"); writes that changed nothing and put()/remove() are not logged.
  std::vector<std::string> writes() const;
  std::size_t writeCount() const { return writes().size(); }
  // Every request that reached the server as "<METHOD> <target>", e.g. "GET /api/v1/pods".
  std::vector<std::string> requestLines() const;
  // Requests that asked for a change (POST, PUT, PATCH, DELETE), whatever the answer, so a test
  // can tell that nothing was written, not even a write that would have changed nothing.
  std::size_t writeRequests() const;
  // Requests whose path is `path` (e.g. "/healthz").
  std::size_t requestsTo(const std::string& path) const;
  // Waits (in real time, at most `limit`) until at least `count` requests arrived.
  bool waitForRequests(std::size_t count,
                       std::chrono::milliseconds limit = std::chrono::seconds(30)) const;

  // For the transport: serves one request.
  Result<HttpResponse> roundTrip(const HttpRequest& request);
  Result<ResponseStreamPtr> openStream(const HttpRequest& request);

 private:
  struct Target;
  struct Event {
    std::uint64_t revision;
    std::string resource;  // "group/plural"
    std::string type;      // ADDED, MODIFIED, DELETED
    Json object;
  };
  struct Failure {
    RequestMatch match;
    int code;
    std::string reason;
    int remaining;
    std::map<std::string, std::string> headers;
  };
  class WatchStream;

  // Logs the request, applies hooks, latency, holds and scripts; a set result answers it.
  std::optional<Result<HttpResponse>> intercept(const HttpRequest& request, bool watch)
      KF_EXCLUDES(mu_);
  // The scripted response or failure this request gets, if any (used up by it).
  std::optional<Result<HttpResponse>> scriptedAnswerLocked(const HttpRequest& request, bool watch)
      KF_REQUIRES(mu_);
  HttpResponse serve(const HttpRequest& request, const Target& target) KF_EXCLUDES(mu_);
  HttpResponse create(const Target& target, Json object) KF_REQUIRES(mu_);
  HttpResponse update(const Target& target, Json object, bool status) KF_REQUIRES(mu_);
  HttpResponse patch(const Target& target, const Json& patch, bool status) KF_REQUIRES(mu_);
  HttpResponse remove(const Target& target, const Json& options) KF_REQUIRES(mu_);
  HttpResponse listResponse(const Target& target, const std::string& selector) KF_REQUIRES(mu_);
  // Stores `object` as the new state of `key`, emits the event and (`log`) logs the write.
  Json storeLocked(const std::string& resource, const std::string& key, Json object,
                   const std::string& type, bool log = true) KF_REQUIRES(mu_);
  void eraseLocked(const std::string& resource, const std::string& key, Json final_state,
                   bool log = true) KF_REQUIRES(mu_);
  void publishLocked(const Event& event) KF_REQUIRES(mu_);
  bool hasGeneration(const std::string& plural) const;
  std::string nextRevision() KF_REQUIRES(mu_);

  Clock& clock_;
  mutable Mutex mu_;
  mutable std::condition_variable changed_;
  // resource ("group/plural") -> key ("ns/name" or "name") -> object
  std::map<std::string, std::map<std::string, Json>> objects_ KF_GUARDED_BY(mu_);
  std::uint64_t revision_ KF_GUARDED_BY(mu_) = 0;
  std::uint64_t uid_ KF_GUARDED_BY(mu_) = 0;
  std::vector<Event> history_ KF_GUARDED_BY(mu_);
  std::uint64_t compacted_ KF_GUARDED_BY(mu_) = 0;
  std::vector<std::shared_ptr<WatchStream>> watches_ KF_GUARDED_BY(mu_);
  std::set<std::string> status_subresources_ KF_GUARDED_BY(mu_);
  bool require_namespaces_ KF_GUARDED_BY(mu_) = false;
  std::vector<Failure> failures_ KF_GUARDED_BY(mu_);
  std::deque<Result<HttpResponse>> responses_ KF_GUARDED_BY(mu_);
  Duration latency_ KF_GUARDED_BY(mu_){0};
  bool held_ KF_GUARDED_BY(mu_) = false;
  bool unreachable_ KF_GUARDED_BY(mu_) = false;
  int healthz_status_ KF_GUARDED_BY(mu_) = 200;
  std::string healthz_body_ KF_GUARDED_BY(mu_) = "ok";
  std::function<void(const HttpRequest&)> hook_ KF_GUARDED_BY(mu_);
  std::vector<HttpRequest> requests_ KF_GUARDED_BY(mu_);
  std::vector<std::string> writes_ KF_GUARDED_BY(mu_);
};

// A RestConfig for clients of a FakeApiServer: no client-side rate limit.
RestConfig fakeServerConfig();

// A response with a JSON body.
HttpResponse jsonResponse(int status, const Json& body);
// A response with this body as it is (not necessarily JSON), for respondNext().
HttpResponse textResponse(int status, std::string body,
                          std::map<std::string, std::string> headers = {});
// A failure answered with a Status object, as a real server writes it.
HttpResponse statusResponse(int code, const std::string& reason, const std::string& message);

}  // namespace kf::test

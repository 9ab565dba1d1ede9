#pragma once
// An in-memory API server for objects with a status subresource (PropagatedVersions, federated
// objects): list, get, create (status dropped, as a status subresource does) and status updates
// checked against resourceVersion, for any /apis/<group>/<version> resource. Tests can script
// failures for the next requests of a method and count what was written.

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "federation/client/transport.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class FakeStatusApi final : public Transport {
 public:
  // The stored object (null when absent); the namespace is empty for cluster-scoped ones.
  Json object(const std::string& plural, const std::string& ns, const std::string& name) {
    MutexLock lock(mu_);
    auto it = objects_.find(plural + "/" + ns + "/" + name);
    return it == objects_.end() ? Json() : it->second;
  }
  // Stores an object as a previous run would have left it.
  void put(const std::string& plural, Json object) {
    MutexLock lock(mu_);
    object["metadata"]["resourceVersion"] = std::to_string(++revision_);
    const std::string key = plural + "/" + object["metadata"].value("namespace", "") + "/" +
                            object["metadata"]["name"].get<std::string>();
    objects_[key] = std::move(object);
  }
  void erase(const std::string& plural, const std::string& ns, const std::string& name) {
    MutexLock lock(mu_);
    objects_.erase(plural + "/" + ns + "/" + name);
  }
  // Bumps the stored resourceVersion, as another writer would.
  void touch(const std::string& plural, const std::string& ns, const std::string& name) {
    MutexLock lock(mu_);
    objects_.at(plural + "/" + ns + "/" + name)["metadata"]["resourceVersion"] =
        std::to_string(++revision_);
  }
  // The next request with `method` ("GET", "POST", "PUT") fails with this status code.
  void failNext(const std::string& method, int code, const std::string& reason) {
    MutexLock lock(mu_);
    failures_[method].push_back({code, reason});
  }
  // Writes (POST and PUT) the API accepted.
  int writes() const {
    MutexLock lock(mu_);
    return writes_;
  }
  std::vector<std::string> requestLog() const {
    MutexLock lock(mu_);
    return log_;
  }

  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    MutexLock lock(mu_);
    log_.push_back(request.method + " " + request.target);
    if (auto& queued = failures_[request.method]; !queued.empty()) {
      const auto [code, reason] = queued.front();
      queued.pop_front();
      return status(code, reason, "scripted failure");
    }
    const Path path = parse(request.target);
    if (request.method == "GET" && path.name.empty()) return list(path);
    if (request.method == "GET") return get(path);
    if (request.method == "POST") return create(path, Json::parse(request.body));
    if (request.method == "PUT" && path.status)
      return updateStatus(path, Json::parse(request.body));
    return status(405, "MethodNotAllowed", "not served by the fake");
  }
  Result<ResponseStreamPtr> openStream(const HttpRequest&) override {
    return makeError(Reason::kConnectionFailed, "the fake does not stream");
  }

 private:
  struct Path {
    std::string plural;
    std::string ns;
    std::string name;
    bool status = false;
  };

  // /apis/core.kubefed.io/v1alpha1[/namespaces/NS]/PLURAL[/NAME[/status]][?query]
  static Path parse(std::string target) {
    target = target.substr(0, target.find('?'));
    std::vector<std::string> parts;
    std::size_t start = 1;
    while (start <= target.size()) {
      const std::size_t end = target.find('/', start);
      parts.push_back(target.substr(start, end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    Path path;
    std::size_t i = 3;  // after apis, group, version
    if (parts.size() > i && parts[i] == "namespaces") {
      path.ns = parts[i + 1];
      i += 2;
    }
    path.plural = parts.at(i);
    if (parts.size() > i + 1) path.name = parts[i + 1];
    path.status = parts.size() > i + 2 && parts[i + 2] == "status";
    return path;
  }

  std::string key(const Path& path) const { return path.plural + "/" + path.ns + "/" + path.name; }

  static HttpResponse json(int code, const Json& body) {
    return HttpResponse{code, {{"content-type", "application/json"}}, body.dump()};
  }
  static HttpResponse status(int code, const std::string& reason, const std::string& message) {
    return json(code, {{"kind", "Status"},
                       {"apiVersion", "v1"},
                       {"status", "Failure"},
                       {"reason", reason},
                       {"message", message},
                       {"code", code}});
  }

  HttpResponse list(const Path& path) KF_REQUIRES(mu_) {
    Json items = Json::array();
    for (const auto& [stored_key, object] : objects_) {
      const bool same_plural = stored_key.rfind(path.plural + "/", 0) == 0;
      const bool in_namespace =
          path.ns.empty() || object["metadata"].value("namespace", "") == path.ns;
      if (same_plural && in_namespace) items.push_back(object);
    }
    return json(200, {{"kind", "List"},
                      {"metadata", {{"resourceVersion", std::to_string(revision_)}}},
                      {"items", items}});
  }
  HttpResponse get(const Path& path) KF_REQUIRES(mu_) {
    auto it = objects_.find(key(path));
    if (it == objects_.end()) return status(404, "NotFound", path.name + " not found");
    return json(200, it->second);
  }
  HttpResponse create(Path path, Json object) KF_REQUIRES(mu_) {
    path.name = object["metadata"]["name"].get<std::string>();
    if (objects_.contains(key(path))) return status(409, "AlreadyExists", "already exists");
    object.erase("status");
    object["metadata"]["resourceVersion"] = std::to_string(++revision_);
    objects_[key(path)] = object;
    ++writes_;
    return json(201, object);
  }
  HttpResponse updateStatus(const Path& path, const Json& object) KF_REQUIRES(mu_) {
    auto it = objects_.find(key(path));
    if (it == objects_.end()) return status(404, "NotFound", path.name + " not found");
    if (object["metadata"].value("resourceVersion", "") !=
        it->second["metadata"]["resourceVersion"].get<std::string>()) {
      return status(409, "Conflict", "the object has been modified");
    }
    it->second["status"] = object.value("status", Json());
    it->second["metadata"]["resourceVersion"] = std::to_string(++revision_);
    ++writes_;
    return json(200, it->second);
  }

  mutable Mutex mu_;
  std::map<std::string, Json> objects_ KF_GUARDED_BY(mu_);
  std::map<std::string, std::deque<std::pair<int, std::string>>> failures_ KF_GUARDED_BY(mu_);
  std::vector<std::string> log_ KF_GUARDED_BY(mu_);
  int revision_ KF_GUARDED_BY(mu_) = 100;
  int writes_ KF_GUARDED_BY(mu_) = 0;
};

}  // namespace kf::test

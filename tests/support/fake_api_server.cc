#include "tests/support/fake_api_server.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "apis/meta/time.h"
#include "federation/client/watch.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::test {
namespace {

// Kinds without metadata.generation on a real server.
const std::set<std::string> kWithoutGeneration = {
    "configmaps", "secrets", "namespaces", "serviceaccounts", "events", "endpoints", "leases"};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

std::string percentDecoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out.push_back(static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i] == '+' ? ' ' : text[i]);
    }
  }
  return out;
}

Json statusBody(int code, const std::string& reason, const std::string& message) {
  return {{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
          {"reason", reason}, {"code", code},       {"message", message}};
}

HttpResponse failure(int code, const std::string& reason, const std::string& message) {
  return statusResponse(code, reason, message);
}

// Equality-based selectors as informers send them: "a=b,c!=d,e,!f".
bool selectorMatches(const std::string& selector, const Json& object) {
  const StringMap labels = objectLabels(object).value_or(StringMap{});
  for (const std::string& term : split(selector, ',')) {
    if (term.empty()) continue;
    if (auto ne = term.find("!="); ne != std::string::npos) {
      auto it = labels.find(term.substr(0, ne));
      if (it != labels.end() && it->second == term.substr(ne + 2)) return false;
    } else if (auto eq = term.find('='); eq != std::string::npos) {
      const std::size_t value_at = term.compare(eq, 2, "==") == 0 ? eq + 2 : eq + 1;
      auto it = labels.find(term.substr(0, eq));
      if (it == labels.end() || it->second != term.substr(value_at)) return false;
    } else if (term[0] == '!') {
      if (labels.contains(term.substr(1))) return false;
    } else if (!labels.contains(term)) {
      return false;
    }
  }
  return true;
}

// JSON merge patch (RFC 7386).
void mergePatch(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null()) {
      target.erase(key);
    } else {
      mergePatch(target[key], value);
    }
  }
}

Json withoutMetadataAndStatus(Json object) {
  if (object.is_object()) {
    object.erase("metadata");
    object.erase("status");
  }
  return object;
}

std::string kindOfList(const std::string& plural) { return plural + "List"; }

}  // namespace

// Where a request points.
struct FakeApiServer::Target {
  bool healthz = false;
  bool valid = false;
  std::string group;
  std::string version;
  std::string plural;
  std::string ns;
  std::string name;
  std::string subresource;
  std::map<std::string, std::string> query;

  std::string resource() const { return group + "/" + plural; }
  std::string key() const { return ns.empty() ? name : ns + "/" + name; }
  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
  bool watch() const {
    auto it = query.find("watch");
    return it != query.end() && (it->second == "true" || it->second == "1");
  }
  std::string param(const std::string& key) const {
    auto it = query.find(key);
    return it == query.end() ? "" : it->second;
  }

  static Target parse(const std::string& request_target) {
    Target target;
    const auto question = request_target.find('?');
    const std::string path = request_target.substr(0, question);
    if (question != std::string::npos) {
      for (const std::string& pair : split(request_target.substr(question + 1), '&')) {
        const auto eq = pair.find('=');
        target.query[percentDecoded(pair.substr(0, eq))] =
            eq == std::string::npos ? "" : percentDecoded(pair.substr(eq + 1));
      }
    }
    if (path == "/healthz") {
      target.healthz = true;
      return target;
    }
    std::vector<std::string> parts = split(path, '/');
    if (!parts.empty() && parts[0].empty()) parts.erase(parts.begin());
    std::size_t at = 0;
    if (parts.size() >= 2 && parts[0] == "api") {
      target.version = parts[1];
      at = 2;
    } else if (parts.size() >= 3 && parts[0] == "apis") {
      target.group = parts[1];
      target.version = parts[2];
      at = 3;
    } else {
      return target;
    }
    std::vector<std::string> rest(parts.begin() + static_cast<long>(at), parts.end());
    // namespaces/<ns>/<plural>/... is namespaced; namespaces[/<name>[/<sub>]] is the Namespace.
    if (rest.size() >= 3 && rest[0] == "namespaces" && rest[2] != "status" &&
        rest[2] != "finalize") {
      target.ns = rest[1];
      rest.erase(rest.begin(), rest.begin() + 2);
    }
    if (rest.empty() || rest.size() > 3) return target;
    target.plural = rest[0];
    if (rest.size() >= 2) target.name = rest[1];
    if (rest.size() == 3) target.subresource = rest[2];
    target.valid = true;
    return target;
  }
};

// One watch: the lines the server queued for it, read by the client's stream.
class FakeApiServer::WatchStream {
 public:
  WatchStream(std::string resource, std::string ns, std::string selector)
      : resource_(std::move(resource)), ns_(std::move(ns)), selector_(std::move(selector)) {}

  bool wants(const Event& event) const {
    if (event.resource != resource_) return false;
    if (!ns_.empty() && objectNamespace(event.object) != ns_) return false;
    return selectorMatches(selector_, event.object);
  }
  void push(const std::string& type, const Json& object) {
    {
      MutexLock lock(mu_);
      if (closed_) return;
      buffer_ += Json{{"type", type}, {"object", object}}.dump() + "\n";
      cv_.notify_all();
    }
    completePendingRead();
  }
  void close() {
    {
      MutexLock lock(mu_);
      closed_ = true;
      cv_.notify_all();
    }
    completePendingRead();
  }
  bool closed() const {
    MutexLock lock(mu_);
    return closed_;
  }

  // The ResponseStream side.
  Result<std::size_t> read(char* buffer, std::size_t size) {
    MutexLock lock(mu_);
    while (buffer_.empty() && !closed_ && !cancelled_) cv_.wait(lock.native());
    return takeLocked(buffer, size);
  }
  // Completes at once when something is there to read, else on the thread that pushes, closes
  // or cancels next (never under this stream's lock).
  void readAsync(char* buffer, std::size_t size, std::function<void(Result<std::size_t>)> done) {
    std::optional<Result<std::size_t>> read;
    {
      MutexLock lock(mu_);
      if (buffer_.empty() && !closed_ && !cancelled_) {
        pending_ = PendingRead{buffer, size, std::move(done)};
        return;
      }
      read = takeLocked(buffer, size);
    }
    done(std::move(*read));
  }
  void cancel() {
    {
      MutexLock lock(mu_);
      cancelled_ = true;
      closed_ = true;
      cv_.notify_all();
    }
    completePendingRead();
  }

 private:
  struct PendingRead {
    char* buffer;
    std::size_t size;
    std::function<void(Result<std::size_t>)> done;
  };

  Result<std::size_t> takeLocked(char* buffer, std::size_t size) KF_REQUIRES(mu_) {
    if (cancelled_) return makeError(Reason::kCancelled, "the stream was cancelled");
    if (buffer_.empty()) return std::size_t{0};
    const std::size_t n = std::min(size, buffer_.size());
    std::copy_n(buffer_.begin(), n, buffer);
    buffer_.erase(0, n);
    return n;
  }

  void completePendingRead() {
    std::optional<PendingRead> pending;
    std::optional<Result<std::size_t>> read;
    {
      MutexLock lock(mu_);
      if (!pending_) return;
      pending = std::exchange(pending_, std::nullopt);
      read = takeLocked(pending->buffer, pending->size);
    }
    pending->done(std::move(*read));
  }

  const std::string resource_;
  const std::string ns_;
  const std::string selector_;
  mutable Mutex mu_;
  std::condition_variable cv_;
  std::string buffer_ KF_GUARDED_BY(mu_);
  bool closed_ KF_GUARDED_BY(mu_) = false;
  bool cancelled_ KF_GUARDED_BY(mu_) = false;
  std::optional<PendingRead> pending_ KF_GUARDED_BY(mu_);
};

namespace {

class FakeResponseStream final : public ResponseStream {
 public:
  using Read = std::function<Result<std::size_t>(char*, std::size_t)>;
  using ReadDone = std::function<void(Result<std::size_t>)>;
  using ReadAsync = std::function<void(char*, std::size_t, ReadDone)>;
  // `read_async` null: reads complete at once (a body at hand).
  FakeResponseStream(int status, Read read, std::function<void()> cancel,
                     ReadAsync read_async = nullptr)
      : status_(status),
        read_(std::move(read)),
        cancel_(std::move(cancel)),
        read_async_(std::move(read_async)) {}
  int status() const override { return status_; }
  Result<std::size_t> read(char* buffer, std::size_t size,
                           std::optional<std::chrono::milliseconds>) override {
    return read_(buffer, size);
  }
  void readAsync(char* buffer, std::size_t size, std::optional<std::chrono::milliseconds> idle,
                 ReadDone done) override {
    if (!read_async_) return ResponseStream::readAsync(buffer, size, idle, std::move(done));
    read_async_(buffer, size, std::move(done));
  }
  void cancel() override { cancel_(); }

 private:
  int status_;
  Read read_;
  std::function<void()> cancel_;
  ReadAsync read_async_;
};

// A fixed body as a stream (a watch that failed before it started).
ResponseStreamPtr bodyStream(HttpResponse response) {
  auto body = std::make_shared<std::string>(std::move(response.body));
  return std::make_unique<FakeResponseStream>(
      response.status,
      [body](char* buffer, std::size_t size) -> Result<std::size_t> {
        const std::size_t n = std::min(size, body->size());
        std::copy_n(body->begin(), n, buffer);
        body->erase(0, n);
        return n;
      },
      [] {});
}

class ServerTransport final : public Transport {
 public:
  explicit ServerTransport(FakeApiServer& server) : server_(server) {}
  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    return server_.roundTrip(request);
  }
  Result<ResponseStreamPtr> openStream(const HttpRequest& request) override {
    return server_.openStream(request);
  }

 private:
  FakeApiServer& server_;
};

}  // namespace

RestConfig fakeServerConfig() {
  RestConfig config;
  config.server = "https://127.0.0.1:6443";
  config.qps = 0;
  return config;
}

HttpResponse jsonResponse(int status, const Json& body) {
  return HttpResponse{status, {{"content-type", "application/json"}}, body.dump()};
}

HttpResponse textResponse(int status, std::string body,
                          std::map<std::string, std::string> headers) {
  return HttpResponse{status, std::move(headers), std::move(body)};
}

HttpResponse statusResponse(int code, const std::string& reason, const std::string& message) {
  return jsonResponse(code, statusBody(code, reason, message));
}

FakeApiServer::FakeApiServer(Clock& clock) : clock_(clock) {}

FakeApiServer::~FakeApiServer() { closeWatches(); }

void FakeApiServer::enableStatusSubresource(const std::string& plural) {
  MutexLock lock(mu_);
  status_subresources_.insert(plural);
}

void FakeApiServer::requireNamespaces(bool required) {
  MutexLock lock(mu_);
  require_namespaces_ = required;
}

TransportPtr FakeApiServer::transport() { return std::make_unique<ServerTransport>(*this); }

std::shared_ptr<RestClient> FakeApiServer::client(RetryPolicy retry) {
  return std::make_shared<RestClient>(fakeServerConfig(), transport(), clock_, retry);
}

Json FakeApiServer::put(const GroupVersionResource& resource, Json object) {
  MutexLock lock(mu_);
  const std::string key = objectKey(object);
  const std::string resource_key = resource.group + "/" + resource.resource;
  auto& objects = objects_[resource_key];
  const bool exists = objects.contains(key);
  if (!exists) {
    if (objectUid(object).empty())
      setMetadataString(object, "uid", "uid-" + std::to_string(++uid_));
    if (objectGeneration(object) == 0 && hasGeneration(resource.resource)) {
      object["metadata"]["generation"] = 1;
    }
  }
  return storeLocked(resource_key, key, std::move(object), exists ? "MODIFIED" : "ADDED",
                     /*log=*/false);
}

std::optional<Json> FakeApiServer::get(const GroupVersionResource& resource, const std::string& ns,
                                       const std::string& name) const {
  MutexLock lock(mu_);
  auto objects = objects_.find(resource.group + "/" + resource.resource);
  if (objects == objects_.end()) return std::nullopt;
  auto it = objects->second.find(ns.empty() ? name : ns + "/" + name);
  if (it == objects->second.end()) return std::nullopt;
  return it->second;
}

std::vector<Json> FakeApiServer::list(const GroupVersionResource& resource,
                                      const std::string& ns) const {
  MutexLock lock(mu_);
  std::vector<Json> out;
  auto objects = objects_.find(resource.group + "/" + resource.resource);
  if (objects == objects_.end()) return out;
  for (const auto& [key, object] : objects->second) {
    if (ns.empty() || objectNamespace(object) == ns) out.push_back(object);
  }
  return out;
}

void FakeApiServer::remove(const GroupVersionResource& resource, const std::string& ns,
                           const std::string& name) {
  MutexLock lock(mu_);
  const std::string resource_key = resource.group + "/" + resource.resource;
  const std::string key = ns.empty() ? name : ns + "/" + name;
  auto& objects = objects_[resource_key];
  auto it = objects.find(key);
  if (it == objects.end()) return;
  Json final_state = it->second;
  eraseLocked(resource_key, key, std::move(final_state), /*log=*/false);
}

void FakeApiServer::failNext(RequestMatch match, int code, std::string reason, int times,
                             std::map<std::string, std::string> headers) {
  MutexLock lock(mu_);
  failures_.push_back(
      Failure{std::move(match), code, std::move(reason), times, std::move(headers)});
}

void FakeApiServer::respondNext(Result<HttpResponse> response) {
  MutexLock lock(mu_);
  responses_.push_back(std::move(response));
}

void FakeApiServer::setLatency(Duration latency) {
  MutexLock lock(mu_);
  latency_ = latency;
}

void FakeApiServer::hold() {
  MutexLock lock(mu_);
  held_ = true;
}

void FakeApiServer::release() {
  MutexLock lock(mu_);
  held_ = false;
  changed_.notify_all();
}

void FakeApiServer::setUnreachable(bool unreachable) {
  MutexLock lock(mu_);
  unreachable_ = unreachable;
}

void FakeApiServer::setHealthz(int status, std::string body) {
  MutexLock lock(mu_);
  healthz_status_ = status;
  healthz_body_ = std::move(body);
}

void FakeApiServer::onRequest(std::function<void(const HttpRequest&)> hook) {
  MutexLock lock(mu_);
  hook_ = std::move(hook);
}

void FakeApiServer::closeWatches() {
  std::vector<std::shared_ptr<WatchStream>> watches;
  {
    MutexLock lock(mu_);
    watches.swap(watches_);
  }
  for (const auto& watch : watches) watch->close();
}

void FakeApiServer::compact() {
  MutexLock lock(mu_);
  history_.clear();
  compacted_ = revision_;
}

std::size_t FakeApiServer::openWatches() const {
  MutexLock lock(mu_);
  return static_cast<std::size_t>(std::count_if(
      watches_.begin(), watches_.end(), [](const auto& watch) { return !watch->closed(); }));
}

std::vector<HttpRequest> FakeApiServer::requests() const {
  MutexLock lock(mu_);
  return requests_;
}

std::vector<std::string> FakeApiServer::writes() const {
  MutexLock lock(mu_);
  return writes_;
}

std::vector<std::string> FakeApiServer::requestLines() const {
  MutexLock lock(mu_);
  std::vector<std::string> lines;
  for (const HttpRequest& request : requests_)
    lines.push_back(request.method + " " + request.target);
  return lines;
}

std::size_t FakeApiServer::writeRequests() const {
  MutexLock lock(mu_);
  return static_cast<std::size_t>(
      std::count_if(requests_.begin(), requests_.end(), [](const HttpRequest& request) {
        const std::string& method = request.method;
        return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
      }));
}

std::size_t FakeApiServer::requestsTo(const std::string& path) const {
  MutexLock lock(mu_);
  return static_cast<std::size_t>(
      std::count_if(requests_.begin(), requests_.end(), [&](const HttpRequest& request) {
        return request.target.substr(0, request.target.find('?')) == path;
      }));
}

bool FakeApiServer::waitForRequests(std::size_t count, std::chrono::milliseconds limit) const {
  MutexLock lock(mu_);
  return changed_.wait_for(lock.native(), limit, [&]() KF_NO_THREAD_SAFETY_ANALYSIS {
    return requests_.size() >= count;
  });
}

std::optional<Result<HttpResponse>> FakeApiServer::intercept(const HttpRequest& request,
                                                             bool watch) {
  std::function<void(const HttpRequest&)> hook;
  Duration latency{0};
  std::optional<Result<HttpResponse>> scripted;
  {
    MutexLock lock(mu_);
    requests_.push_back(request);
    changed_.notify_all();
    hook = hook_;
    latency = latency_;
    // Claimed on arrival, so a test that saw this request in requests() and scripts the next
    // answer scripts it for the next request, not for this one.
    if (!unreachable_) scripted = scriptedAnswerLocked(request, watch);
  }
  if (hook) hook(request);
  sleepUnlessStopped(clock_, std::stop_token{}, latency);
  MutexLock lock(mu_);
  while (held_) changed_.wait(lock.native());
  if (unreachable_) {
    return Result<HttpResponse>(
        makeError(Reason::kConnectionFailed,
                  "API server 127.0.0.1:6443: connecting failed: Connection refused"));
  }
  return scripted;
}

std::optional<Result<HttpResponse>> FakeApiServer::scriptedAnswerLocked(const HttpRequest& request,
                                                                        bool watch) {
  if (!responses_.empty()) {
    Result<HttpResponse> scripted = std::move(responses_.front());
    responses_.pop_front();
    return scripted;
  }
  for (Failure& scripted : failures_) {
    const RequestMatch& match = scripted.match;
    if (scripted.remaining <= 0 || match.watch != watch) continue;
    if (!match.method.empty() && match.method != request.method) continue;
    if (!match.path_contains.empty() &&
        request.target.find(match.path_contains) == std::string::npos) {
      continue;
    }
    --scripted.remaining;
    HttpResponse response = failure(scripted.code, scripted.reason, "scripted failure");
    response.headers.insert(scripted.headers.begin(), scripted.headers.end());
    return Result<HttpResponse>(std::move(response));
  }
  return std::nullopt;
}

Result<HttpResponse> FakeApiServer::roundTrip(const HttpRequest& request) {
  if (auto intercepted = intercept(request, false)) return std::move(*intercepted);
  const Target target = Target::parse(request.target);
  if (target.healthz) {
    MutexLock lock(mu_);
    return HttpResponse{healthz_status_, {}, healthz_body_};
  }
  return serve(request, target);
}

Result<ResponseStreamPtr> FakeApiServer::openStream(const HttpRequest& request) {
  if (auto intercepted = intercept(request, true)) {
    if (!*intercepted) return intercepted->error();
    return bodyStream(std::move(intercepted->value()));
  }
  const Target target = Target::parse(request.target);
  if (!target.valid || !target.watch()) {
    return bodyStream(failure(400, "BadRequest", "only watches are streamed"));
  }
  auto stream =
      std::make_shared<WatchStream>(target.resource(), target.ns, target.param("labelSelector"));
  {
    MutexLock lock(mu_);
    const std::string from = target.param("resourceVersion");
    if (from.empty() || from == "0") {
      // Most recent: the current objects as synthetic ADDED events, then the changes.
      for (const auto& [key, object] : objects_[target.resource()]) {
        Event event{revision_, target.resource(), "ADDED", object};
        if (stream->wants(event)) stream->push("ADDED", object);
      }
    } else {
      const std::uint64_t since = std::stoull(from);
      if (since < compacted_) {
        stream->push("ERROR", statusBody(410, "Expired",
                                         "too old resource version: " + from + " (" +
                                             std::to_string(compacted_) + ")"));
        stream->close();
      } else {
        for (const Event& event : history_) {
          if (event.revision > since && stream->wants(event)) {
            stream->push(event.type, event.object);
          }
        }
      }
    }
    watches_.push_back(stream);
  }
  return ResponseStreamPtr(std::make_unique<FakeResponseStream>(
      200, [stream](char* buffer, std::size_t size) { return stream->read(buffer, size); },
      [stream] { stream->cancel(); },
      [stream](char* buffer, std::size_t size, FakeResponseStream::ReadDone done) {
        stream->readAsync(buffer, size, std::move(done));
      }));
}

HttpResponse FakeApiServer::serve(const HttpRequest& request, const Target& target) {
  if (!target.valid)
    return failure(404, "NotFound", "the server could not find the requested resource");
  Json body;
  if (!request.body.empty()) {
    body = Json::parse(request.body, nullptr, false);
    if (body.is_discarded()) return failure(400, "BadRequest", "the body is not JSON");
  }
  const bool status = target.subresource == "status";
  MutexLock lock(mu_);
  const auto& objects = objects_[target.resource()];
  if (request.method == "GET") {
    if (target.name.empty()) return listResponse(target, target.param("labelSelector"));
    auto it = objects.find(target.key());
    if (it == objects.end()) {
      return failure(404, "NotFound", target.plural + " \"" + target.name + "\" not found");
    }
    return jsonResponse(200, it->second);
  }
  if (request.method == "POST") return create(target, std::move(body));
  if (request.method == "PUT") return update(target, std::move(body), status);
  if (request.method == "PATCH") return patch(target, body, status);
  if (request.method == "DELETE") return remove(target, body);
  return failure(405, "MethodNotAllowed", request.method + " is not supported");
}

HttpResponse FakeApiServer::listResponse(const Target& target, const std::string& selector) {
  Json items = Json::array();
  for (const auto& [key, object] : objects_[target.resource()]) {
    if (!target.ns.empty() && objectNamespace(object) != target.ns) continue;
    if (selectorMatches(selector, object)) items.push_back(object);
  }
  return jsonResponse(200, {{"kind", kindOfList(target.plural)},
                            {"apiVersion", target.apiVersion()},
                            {"metadata", {{"resourceVersion", std::to_string(revision_)}}},
                            {"items", std::move(items)}});
}

HttpResponse FakeApiServer::create(const Target& target, Json object) {
  if (!object.is_object()) return failure(400, "BadRequest", "the body is not an object");
  if (!target.ns.empty()) object["metadata"]["namespace"] = target.ns;
  const std::string name = objectName(object);
  if (name.empty()) return failure(422, "Invalid", "metadata.name: Required value");
  Target named = target;
  named.name = name;
  auto& objects = objects_[target.resource()];
  if (objects.contains(named.key())) {
    return failure(409, "AlreadyExists", target.plural + " \"" + name + "\" already exists");
  }
  if (require_namespaces_ && !target.ns.empty() && !objects_["/namespaces"].contains(target.ns)) {
    return failure(404, "NotFound", "namespaces \"" + target.ns + "\" not found");
  }
  if (status_subresources_.contains(target.plural)) object.erase("status");
  setMetadataString(object, "uid", "uid-" + std::to_string(++uid_));
  if (hasGeneration(target.plural)) object["metadata"]["generation"] = 1;
  object["metadata"].erase("deletionTimestamp");
  return jsonResponse(201, storeLocked(target.resource(), named.key(), std::move(object), "ADDED"));
}

HttpResponse FakeApiServer::update(const Target& target, Json object, bool status) {
  auto& objects = objects_[target.resource()];
  auto it = objects.find(target.key());
  if (it == objects.end()) {
    return failure(404, "NotFound", target.plural + " \"" + target.name + "\" not found");
  }
  const Json& stored = it->second;
  const std::string version = objectResourceVersion(object);
  if (!version.empty() && version != objectResourceVersion(stored)) {
    return failure(409, "Conflict",
                   "Operation cannot be fulfilled on " + target.plural + " \"" + target.name +
                       "\": the object has been modified; please apply your changes to the "
                       "latest version and try again");
  }
  Json next = stored;
  if (status) {
    if (object.contains("status")) {
      next["status"] = object["status"];
    } else {
      next.erase("status");
    }
  } else {
    Json metadata = object.value("metadata", Json::object());
    // Fields the server owns.
    for (const char* owned : {"uid", "creationTimestamp", "deletionTimestamp", "generation"}) {
      if (stored["metadata"].contains(owned)) {
        metadata[owned] = stored["metadata"][owned];
      } else {
        metadata.erase(owned);
      }
    }
    const Json keep_status = stored.value("status", Json());
    next = std::move(object);
    next["metadata"] = std::move(metadata);
    if (status_subresources_.contains(target.plural)) {
      if (keep_status.is_null()) {
        next.erase("status");
      } else {
        next["status"] = keep_status;
      }
    }
    if (hasGeneration(target.plural) &&
        withoutMetadataAndStatus(next) != withoutMetadataAndStatus(stored)) {
      next["metadata"]["generation"] = objectGeneration(stored) + 1;
    }
  }
  setMetadataString(next, "resourceVersion", objectResourceVersion(stored));
  if (next == stored) return jsonResponse(200, stored);  // a no-op write changes nothing
  if (hasDeletionTimestamp(next) &&
      objectFinalizers(next).value_or(std::vector<std::string>{}).empty()) {
    eraseLocked(target.resource(), target.key(), next);
    return jsonResponse(200, next);
  }
  return jsonResponse(200,
                      storeLocked(target.resource(), target.key(), std::move(next), "MODIFIED"));
}

HttpResponse FakeApiServer::patch(const Target& target, const Json& patch, bool status) {
  auto& objects = objects_[target.resource()];
  auto it = objects.find(target.key());
  if (it == objects.end()) {
    return failure(404, "NotFound", target.plural + " \"" + target.name + "\" not found");
  }
  Json patched = it->second;
  mergePatch(patched, patch);
  // A resourceVersion in the patch is a precondition; without one the patch applies as is.
  if (!objectResourceVersion(patch).empty()) {
    return update(target, std::move(patched), status);
  }
  setMetadataString(patched, "resourceVersion", "");
  return update(target, std::move(patched), status);
}

HttpResponse FakeApiServer::remove(const Target& target, const Json& options) {
  auto& objects = objects_[target.resource()];
  auto it = objects.find(target.key());
  if (it == objects.end()) {
    return failure(404, "NotFound", target.plural + " \"" + target.name + "\" not found");
  }
  const Json preconditions =
      options.is_object() ? options.value("preconditions", Json::object()) : Json::object();
  if ((preconditions.contains("uid") && preconditions["uid"] != objectUid(it->second)) ||
      (preconditions.contains("resourceVersion") &&
       preconditions["resourceVersion"] != objectResourceVersion(it->second))) {
    return failure(409, "Conflict", "the precondition of the delete failed");
  }
  if (!objectFinalizers(it->second).value_or(std::vector<std::string>{}).empty()) {
    if (hasDeletionTimestamp(it->second)) return jsonResponse(200, it->second);
    Json deleting = it->second;
    deleting["metadata"]["deletionTimestamp"] = meta::formatTime(clock_.wallNow());
    return jsonResponse(
        200, storeLocked(target.resource(), target.key(), std::move(deleting), "MODIFIED"));
  }
  Json final_state = it->second;
  eraseLocked(target.resource(), target.key(), final_state);
  return jsonResponse(200, {{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Success"}});
}

Json FakeApiServer::storeLocked(const std::string& resource, const std::string& key, Json object,
                                const std::string& type, bool log) {
  setMetadataString(object, "resourceVersion", nextRevision());
  objects_[resource][key] = object;
  const std::string plural = resource.substr(resource.find('/') + 1);
  if (log) writes_.push_back(type + " " + plural + "/" + key);
  publishLocked(Event{revision_, resource, type, object});
  return object;
}

void FakeApiServer::eraseLocked(const std::string& resource, const std::string& key,
                                Json final_state, bool log) {
  objects_[resource].erase(key);
  setMetadataString(final_state, "resourceVersion", nextRevision());
  const std::string plural = resource.substr(resource.find('/') + 1);
  if (log) writes_.push_back("DELETED " + plural + "/" + key);
  publishLocked(Event{revision_, resource, "DELETED", std::move(final_state)});
}

void FakeApiServer::publishLocked(const Event& event) {
  history_.push_back(event);
  for (const auto& watch : watches_) {
    if (watch->wants(event)) watch->push(event.type, event.object);
  }
}

bool FakeApiServer::hasGeneration(const std::string& plural) const {
  return !kWithoutGeneration.contains(plural);
}

std::string FakeApiServer::nextRevision() { return std::to_string(++revision_); }

}  // namespace kf::test

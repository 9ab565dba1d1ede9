#include "tests/support/simulated_member/member_api.h"

#include <map>
#include <random>
#include <sstream>

namespace kf::sim {
namespace {

using Query = std::map<std::string, std::string>;

// The API server's default watch length without timeoutSeconds: --min-request-timeout (1800 s)
// times a random factor in [1, 2).
constexpr long kMinRequestTimeoutSeconds = 1800;

std::string percentDecoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i] == '+' ? ' ' : text[i]);
    }
  }
  return out;
}

Query parseQuery(std::string_view text) {
  Query query;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    query[percentDecoded(pair.substr(0, equals))] =
        equals == std::string_view::npos ? "" : percentDecoded(pair.substr(equals + 1));
    start = end + 1;
  }
  return query;
}

std::vector<std::string> pathSegments(const std::string& path) {
  std::vector<std::string> segments;
  std::istringstream in(path);
  for (std::string segment; std::getline(in, segment, '/');) {
    if (!segment.empty()) segments.push_back(segment);
  }
  return segments;
}

std::string param(const Query& query, const std::string& key) {
  const auto found = query.find(key);
  return found == query.end() ? "" : found->second;
}

bool isTrue(const std::string& value) { return value == "true" || value == "1"; }

HttpAnswer textAnswer(int code, std::string body) {
  return {code, "text/plain; charset=utf-8", std::move(body)};
}

Json versionDocument() {
  return {{"major", "1"},
          {"minor", "33"},
          {"emulationMajor", "1"},
          {"emulationMinor", "33"},
          {"minCompatibilityMajor", "1"},
          {"minCompatibilityMinor", "32"},
          // A build the simulation names as itself, so that nobody mistakes it for a real one.
          {"gitVersion", "v1.33.13-kubefed-cpp-simulated"},
          {"gitCommit", ""},
          {"gitTreeState", "clean"},
          {"buildDate", "1970-01-01T00:00:00Z"},
          {"goVersion", ""},
          {"compiler", "kubefed-cpp"},
          {"platform", "linux/amd64"}};
}

bool isPublicPath(const std::string& path) {
  return path == "/healthz" || path == "/livez" || path == "/readyz" || path == "/version" ||
         path == "/version/";
}

// The Kubernetes verb of a request, as RBAC names it.
std::string rbacVerb(const std::string& method, bool collection, bool watch) {
  if (method == "GET") return watch ? "watch" : collection ? "list" : "get";
  if (method == "POST") return "create";
  if (method == "PUT") return "update";
  if (method == "PATCH") return "patch";
  if (method == "DELETE") return "delete";
  return "unknown";
}

}  // namespace

// Where a resource request points.
struct MemberApi::Target {
  std::string group;
  std::string version;
  const ServedResource* resource = nullptr;  // null: the group version's discovery document
  std::string ns;
  std::string name;
  std::string subresource;
  bool unknown = false;  // a resource this member does not serve

  bool collection() const { return name.empty(); }
  std::string scope() const {
    if (!collection()) return "resource";
    return resource->namespaced && !ns.empty() ? "namespace" : "cluster";
  }
};

HttpAnswer jsonAnswer(const Reply& reply) {
  return {reply.code, "application/json", reply.body.dump()};
}

MemberApi::MemberApi(MemberStore& store, RequestMetrics& metrics, std::string token,
                     std::string server_address)
    : store_(store),
      metrics_(metrics),
      token_(std::move(token)),
      server_address_(std::move(server_address)) {}

namespace {

// /api/v1/..., /apis/<group>/<version>/...: nullopt when the path is not of the resource API.
std::optional<std::vector<std::string>> resourcePath(const std::vector<std::string>& segments,
                                                     std::string& group, std::string& version) {
  if (segments.size() >= 2 && segments[0] == "api") {
    version = segments[1];
    return std::vector<std::string>(segments.begin() + 2, segments.end());
  }
  if (segments.size() >= 3 && segments[0] == "apis") {
    group = segments[1];
    version = segments[2];
    return std::vector<std::string>(segments.begin() + 3, segments.end());
  }
  return std::nullopt;
}

}  // namespace

ApiOutcome MemberApi::handle(const ApiRequest& request) {
  const bool anonymous = request.authorization.empty();
  if (!anonymous && request.authorization != "Bearer " + token_) {
    metrics_.countRequest({.verb = request.method, .subresource = request.path}, 401);
    return jsonAnswer(unauthorized());
  }
  const std::vector<std::string> segments = pathSegments(request.path);
  Target target;
  auto rest = resourcePath(segments, target.group, target.version);
  if (!rest || rest->empty()) {
    if (anonymous && !isPublicPath(request.path)) {
      metrics_.countRequest({.verb = request.method, .subresource = request.path}, 403);
      return jsonAnswer(
          forbidden("forbidden: User \"system:anonymous\" cannot get path \"" + request.path + "\"",
                    Json::object()));
    }
    if (auto answer = handleNonResource(request)) {
      metrics_.countRequest({.verb = request.method, .subresource = request.path}, answer->code);
      return *answer;
    }
    return textAnswer(404, "404 page not found\n");
  }
  const std::vector<std::string>& parts = *rest;
  // namespaces/<ns>/<plural>[/<name>[/<subresource>]] for a namespaced resource, else
  // <plural>[/<name>[/<subresource>]].
  std::size_t at = 0;
  if (parts.size() >= 3 && parts[0] == "namespaces") {
    const ServedResource* inner = findResource(target.group, target.version, parts[2]);
    if (inner != nullptr && inner->namespaced) {
      target.ns = parts[1];
      at = 2;
    }
  }
  target.resource = findResource(target.group, target.version, parts[at]);
  if (parts.size() > at + 1) target.name = parts[at + 1];
  if (parts.size() > at + 2) target.subresource = parts[at + 2];
  if (target.resource == nullptr || parts.size() > at + 3 ||
      (!target.resource->namespaced && !target.ns.empty()) ||
      (!target.subresource.empty() &&
       (target.subresource != "status" || !target.resource->status_subresource))) {
    metrics_.countRequest({.verb = request.method, .subresource = request.path}, 404);
    return jsonAnswer(unknownResource());
  }
  const Query query = parseQuery(request.query);
  if (anonymous) {
    const std::string verb =
        rbacVerb(request.method, target.collection(), isTrue(param(query, "watch")));
    const ServedResource& r = *target.resource;
    std::string message = target.name.empty() ? r.plural : r.plural + " \"" + target.name + "\"";
    message += " is forbidden: User \"system:anonymous\" cannot " + verb + " resource \"" +
               r.plural + "\" in API group \"" + r.group + "\" " +
               (target.ns.empty() ? std::string("at the cluster scope")
                                  : "in the namespace \"" + target.ns + "\"");
    Json details = Json::object();
    if (!target.name.empty()) details["name"] = target.name;
    if (!r.group.empty()) details["group"] = r.group;
    details["kind"] = r.plural;
    metrics_.countRequest({.verb = request.method, .resource = &r, .scope = target.scope()}, 403);
    return jsonAnswer(forbidden(message, std::move(details)));
  }
  return handleResource(request, target);
}

std::optional<HttpAnswer> MemberApi::handleNonResource(const ApiRequest& request) {
  const std::string& path = request.path;
  if (request.method != "GET" && request.method != "HEAD") return std::nullopt;
  if (path == "/healthz" || path == "/livez" || path == "/readyz") return textAnswer(200, "ok");
  if (path == "/version" || path == "/version/") return jsonAnswer({200, versionDocument()});
  if (path == "/metrics") return HttpAnswer{200, "text/plain; version=0.0.4", metrics_.text()};
  if (path == "/api" || path == "/api/") {
    return jsonAnswer({200, apiVersionsDocument(server_address_)});
  }
  if (path == "/apis" || path == "/apis/") return jsonAnswer({200, apiGroupListDocument()});
  std::string group;
  std::string version;
  const std::vector<std::string> segments = pathSegments(path);
  if (auto rest = resourcePath(segments, group, version); rest && rest->empty()) {
    if (auto document = resourceListDocument(group, version)) return jsonAnswer({200, *document});
  }
  return std::nullopt;
}

ApiOutcome MemberApi::handleResource(const ApiRequest& request, const Target& target) {
  const Query query = parseQuery(request.query);
  const bool watch =
      request.method == "GET" && target.collection() && isTrue(param(query, "watch"));
  RequestLabels labels{.verb = request.method,
                       .resource = target.resource,
                       .subresource = target.subresource,
                       .scope = target.scope(),
                       .dry_run = param(query, "dryRun") == "All"};
  if (request.method == "GET" && target.collection()) labels.verb = watch ? "WATCH" : "LIST";
  ApiOutcome outcome = resourceOperation(request, target);
  const int code =
      std::holds_alternative<HttpAnswer>(outcome) ? std::get<HttpAnswer>(outcome).code : 200;
  metrics_.countRequest(labels, code);
  return outcome;
}

ApiOutcome MemberApi::resourceOperation(const ApiRequest& request, const Target& target) {
  const ServedResource& resource = *target.resource;
  const Query query = parseQuery(request.query);
  const bool dry_run = param(query, "dryRun") == "All";
  const bool status = target.subresource == "status";
  if (request.method == "GET" && !target.collection()) {
    return jsonAnswer(store_.get(resource, target.ns, target.name));
  }
  if (request.method == "GET") {
    Selectors selectors;
    auto labels = parseLabelSelector(param(query, "labelSelector"));
    if (!labels) return jsonAnswer(badRequest(labels.error().message));
    auto fields = parseFieldSelector(param(query, "fieldSelector"));
    if (!fields) return jsonAnswer(badRequest(fields.error().message));
    selectors.labels = std::move(labels).value();
    selectors.fields = std::move(fields).value();
    if (isTrue(param(query, "watch"))) {
      static thread_local std::mt19937 random{std::random_device{}()};
      long seconds = kMinRequestTimeoutSeconds +
                     static_cast<long>(random() % static_cast<unsigned>(kMinRequestTimeoutSeconds));
      if (const std::string timeout = param(query, "timeoutSeconds"); !timeout.empty()) {
        seconds = std::strtol(timeout.c_str(), nullptr, 10);
      }
      return WatchStart{&resource,
                        target.ns,
                        std::move(selectors),
                        param(query, "resourceVersion"),
                        isTrue(param(query, "allowWatchBookmarks")),
                        std::chrono::seconds(seconds)};
    }
    ListQuery list{std::move(selectors), param(query, "resourceVersion"),
                   param(query, "resourceVersionMatch"), 0, param(query, "continue")};
    if (const std::string limit = param(query, "limit"); !limit.empty()) {
      list.limit = std::strtoll(limit.c_str(), nullptr, 10);
    }
    return jsonAnswer(store_.list(resource, target.ns, list));
  }
  if (request.method == "DELETE" && !target.collection() && !status) {
    const Json options = request.body.empty() ? Json() : Json::parse(request.body, nullptr, false);
    if (options.is_discarded()) return jsonAnswer(badRequest("DeleteOptions: not JSON"));
    return jsonAnswer(store_.remove(resource, target.ns, target.name, options, dry_run));
  }
  const bool writes_object =
      (request.method == "PUT" || request.method == "PATCH") && !target.collection();
  const bool creates = request.method == "POST" && target.collection();
  if (!writes_object && !creates) return jsonAnswer(methodNotAllowed(request.method));
  if (request.method == "PATCH" &&
      request.content_type.rfind("application/merge-patch+json", 0) != 0) {
    return jsonAnswer(unsupportedMediaType(request.content_type));
  }
  Json body = Json::parse(request.body, nullptr, false);
  if (body.is_discarded()) {
    return jsonAnswer(badRequest("the object provided is unrecognized (must be of type " +
                                 resource.kind + "): couldn't get version/kind; json parse error"));
  }
  if (creates) return jsonAnswer(store_.create(resource, target.ns, std::move(body), dry_run));
  if (request.method == "PUT") {
    return jsonAnswer(
        store_.update(resource, target.ns, target.name, std::move(body), status, dry_run));
  }
  return jsonAnswer(store_.patch(resource, target.ns, target.name, body, status, dry_run));
}

}  // namespace kf::sim

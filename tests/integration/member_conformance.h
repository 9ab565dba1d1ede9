#pragma once
// What the member conformance tests share: the two members they run against (a real
// kube-apiserver of the local clusters, and a simulated member of tests/support/simulated_member
// served from this process), spoken to in raw HTTP so that what is compared is what the servers
// answer, not how our client reads it.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object.h"
#include "federation/client/transport.h"

namespace kf::integration::conformance {

struct Answer {
  int code = 0;
  std::string text;
  Json body;  // the text as JSON; discarded when it is not JSON
};

// One member under test.
class Member {
 public:
  virtual ~Member() = default;
  virtual std::string server() const = 0;
  virtual std::string caPem() const = 0;
  virtual std::string token() const = 0;
  // Makes every resourceVersion before now too old for a watch of podtemplates (the real API
  // servers of the local clusters keep no watch cache for them: etcd's compaction is what
  // counts).
  virtual void compact() = 0;
};

// "kube-apiserver" (member1 of the fixture's clusters) or "simulated" (one simulated member,
// started once per process).
Member& memberNamed(const std::string& name);

// Raw requests to one member, with its bearer token unless told otherwise.
class Http {
 public:
  explicit Http(Member& member);

  Answer call(const std::string& method, const std::string& target, const Json& body = nullptr,
              const std::string& content_type = "application/json");
  // The same with this Authorization header ("" for none).
  Answer callAs(const std::string& authorization, const std::string& method,
                const std::string& target);
  Answer get(const std::string& target) { return call("GET", target); }
  Answer post(const std::string& target, const Json& body) { return call("POST", target, body); }
  Answer put(const std::string& target, const Json& body) { return call("PUT", target, body); }
  Answer mergePatch(const std::string& target, const Json& patch) {
    return call("PATCH", target, patch, "application/merge-patch+json");
  }
  Answer remove(const std::string& target, const Json& options = nullptr) {
    return call("DELETE", target, options);
  }

  // A watch's stream, read line by line.
  class Watch {
   public:
    explicit Watch(ResponseStreamPtr stream) : stream_(std::move(stream)) {}
    ~Watch();
    // The next event, or nullopt when the stream ended or `limit` passed without one.
    std::optional<Json> next(std::chrono::milliseconds limit = std::chrono::seconds(10));
    // Every event until the stream ends (at most `limit`).
    std::vector<Json> rest(std::chrono::milliseconds limit = std::chrono::seconds(10));
    bool ended() const { return ended_; }

   private:
    ResponseStreamPtr stream_;
    std::string pending_;
    bool ended_ = false;
  };
  // GET target (with watch=true in its query); nullptr when it did not open with 200.
  std::unique_ptr<Watch> watch(const std::string& target);

 private:
  HttpRequest request(const std::string& method, const std::string& target) const;

  Member& member_;
  TransportPtr transport_;
};

// A namespace of the test's own (prefix plus a random suffix), created at once, deleted after.
class ScratchNamespace {
 public:
  ScratchNamespace(Http& http, const std::string& prefix);
  ~ScratchNamespace();
  const std::string& name() const { return name_; }
  // /api/v1/namespaces/<ns>/<plural>[/<name>]
  std::string path(const std::string& plural, const std::string& object = "") const;

 private:
  Http& http_;
  std::string name_;
};

// prefix + "-" + a random suffix, a valid name.
std::string uniqueName(const std::string& prefix);

// A ConfigMap named `name`, with labels and data.
Json configMap(const std::string& name, const StringMap& labels = {},
               const StringMap& data = {{"key", "value"}});
// A Secret named `name`, with labels. Where a case needs to know every object of a namespace it
// uses Secrets: kube-controller-manager adds a ConfigMap (kube-root-ca.crt) to every namespace
// of a real cluster, and nothing adds Secrets.
Json secret(const std::string& name, const StringMap& labels = {});

// The sum of the samples of apiserver_request_total with these label values in a /metrics text.
long requestCount(const std::string& metrics_text, const std::string& verb,
                  const std::string& resource, const std::string& code);

// The names of a list's items, in order.
std::vector<std::string> itemNames(const Json& list);

}  // namespace kf::integration::conformance

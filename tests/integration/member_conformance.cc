#include "tests/integration/member_conformance.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "federation/metrics/sample_parse.h"
#include "tests/integration/local_clusters.h"
#include "tests/support/simulated_member/simulated_members.h"

namespace kf::integration::conformance {
namespace {

using Clock = std::chrono::steady_clock;

class RealMember final : public Member {
 public:
  std::string server() const override { return LocalClusters::get().env("KF_MEMBER1_SERVER"); }
  std::string caPem() const override { return readFile(LocalClusters::get().env("KF_CA_FILE")); }
  std::string token() const override { return LocalClusters::get().env("KF_MEMBER1_TOKEN"); }
  void compact() override { ASSERT_EQ(LocalClusters::get().script("compact"), 0); }
};

class SimulatedMember final : public Member {
 public:
  SimulatedMember() {
    const sim::ServingCertificate certificate = sim::makeServingCertificate();
    ca_pem_ = certificate.ca_pem;
    auto started = sim::SimulatedMembers::start(
        {.members = 1, .cert_pem = certificate.cert_pem, .key_pem = certificate.key_pem});
    if (!started) ADD_FAILURE() << started.error().describe();
    members_ = std::move(started).value();
  }
  std::string server() const override { return members_->members()[0].server(); }
  std::string caPem() const override { return ca_pem_; }
  std::string token() const override { return members_->members()[0].token; }
  void compact() override { members_->store(0).compact(); }

 private:
  std::string ca_pem_;
  std::unique_ptr<sim::SimulatedMembers> members_;
};

std::string randomSuffix() {
  static std::mt19937 random{std::random_device{}()};
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string suffix;
  for (int i = 0; i < 6; ++i) suffix += kAlphabet[random() % (sizeof(kAlphabet) - 1)];
  return suffix;
}

}  // namespace

Member& memberNamed(const std::string& name) {
  if (name == "simulated") {
    static SimulatedMember simulated;
    return simulated;
  }
  static RealMember real;
  return real;
}

Http::Http(Member& member) : member_(member) {
  RestConfig config;
  config.server = member.server();
  config.tls.ca_pem = member.caPem();
  auto transport = makeTransport(config);
  if (!transport) ADD_FAILURE() << transport.error().describe();
  transport_ = std::move(transport).value();
}

HttpRequest Http::request(const std::string& method, const std::string& target) const {
  HttpRequest request;
  request.method = method;
  request.target = target;
  request.headers["Accept"] = "application/json";
  request.headers["Authorization"] = "Bearer " + member_.token();
  request.timeout = std::chrono::seconds(30);
  return request;
}

Answer Http::call(const std::string& method, const std::string& target, const Json& body,
                  const std::string& content_type) {
  HttpRequest sent = request(method, target);
  if (!body.is_null()) {
    sent.body = body.dump();
    sent.headers["Content-Type"] = content_type;
  }
  auto response = transport_->roundTrip(sent);
  if (!response) {
    ADD_FAILURE() << method << " " << target << ": " << response.error().describe();
    return {};
  }
  return {response.value().status, response.value().body,
          Json::parse(response.value().body, nullptr, false)};
}

Answer Http::callAs(const std::string& authorization, const std::string& method,
                    const std::string& target) {
  HttpRequest sent = request(method, target);
  sent.headers.erase("Authorization");
  if (!authorization.empty()) sent.headers["Authorization"] = authorization;
  auto response = transport_->roundTrip(sent);
  if (!response) {
    ADD_FAILURE() << method << " " << target << ": " << response.error().describe();
    return {};
  }
  return {response.value().status, response.value().body,
          Json::parse(response.value().body, nullptr, false)};
}

long requestCount(const std::string& metrics_text, const std::string& verb,
                  const std::string& resource, const std::string& code) {
  // A real API server's /metrics is megabytes: only the lines that can match are parsed.
  std::string lines;
  std::istringstream in(metrics_text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("apiserver_request_total{", 0) == 0 &&
        line.find("resource=\"" + resource + "\"") != std::string::npos) {
      lines += line + "\n";
    }
  }
  long total = 0;
  for (const auto& sample : metrics::samplesNamed(lines, "apiserver_request_total")) {
    const auto label = [&sample](const char* name) {
      const auto found = sample.labels.find(name);
      return found == sample.labels.end() ? std::string() : found->second;
    };
    if (label("verb") == verb && label("resource") == resource && label("code") == code) {
      total += static_cast<long>(sample.value);
    }
  }
  return total;
}

std::unique_ptr<Http::Watch> Http::watch(const std::string& target) {
  auto stream = transport_->openStream(request("GET", target));
  if (!stream) {
    ADD_FAILURE() << "watch " << target << ": " << stream.error().describe();
    return nullptr;
  }
  if (stream.value()->status() != 200) {
    ADD_FAILURE() << "watch " << target << ": HTTP " << stream.value()->status();
    return nullptr;
  }
  return std::make_unique<Watch>(std::move(stream).value());
}

Http::Watch::~Watch() { stream_->cancel(); }

std::optional<Json> Http::Watch::next(std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (true) {
    if (const std::size_t newline = pending_.find('\n'); newline != std::string::npos) {
      Json event = Json::parse(pending_.substr(0, newline), nullptr, false);
      pending_.erase(0, newline + 1);
      return event;
    }
    if (ended_) return std::nullopt;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left <= std::chrono::milliseconds(0)) return std::nullopt;
    char buffer[16384];
    auto read = stream_->read(buffer, sizeof(buffer), left);
    if (!read) {
      if (read.error().reason != Reason::kClientTimeout) ended_ = true;
      if (pending_.find('\n') == std::string::npos) return std::nullopt;
      continue;
    }
    if (read.value() == 0) ended_ = true;
    pending_.append(buffer, read.value());
  }
}

std::vector<Json> Http::Watch::rest(std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  std::vector<Json> events;
  while (Clock::now() < deadline) {
    auto event =
        next(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    if (!event) break;
    events.push_back(std::move(*event));
  }
  return events;
}

ScratchNamespace::ScratchNamespace(Http& http, const std::string& prefix)
    : http_(http), name_(uniqueName("conformance-" + prefix)) {
  const Answer created =
      http_.post("/api/v1/namespaces",
                 {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name_}}}});
  EXPECT_EQ(created.code, 201) << created.text;
}

ScratchNamespace::~ScratchNamespace() { http_.remove("/api/v1/namespaces/" + name_); }

std::string ScratchNamespace::path(const std::string& plural, const std::string& object) const {
  std::string out = "/api/v1/namespaces/" + name_ + "/" + plural;
  if (!object.empty()) out += "/" + object;
  return out;
}

std::string uniqueName(const std::string& prefix) { return prefix + "-" + randomSuffix(); }

Json configMap(const std::string& name, const StringMap& labels, const StringMap& data) {
  Json metadata = {{"name", name}};
  if (!labels.empty()) metadata["labels"] = labels;
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", metadata}, {"data", data}};
}

Json secret(const std::string& name, const StringMap& labels) {
  Json metadata = {{"name", name}};
  if (!labels.empty()) metadata["labels"] = labels;
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", metadata},
          {"data", {{"key", "dmFsdWU="}}}};
}

std::vector<std::string> itemNames(const Json& list) {
  std::vector<std::string> names;
  for (const Json& item : list.value("items", Json::array())) names.push_back(objectName(item));
  return names;
}

}  // namespace kf::integration::conformance

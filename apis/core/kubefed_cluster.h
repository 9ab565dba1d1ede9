#pragma once
// core.kubefed.io/v1beta1 KubeFedCluster: a member cluster and how to reach it (spec §1.2).

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object_header.h"

namespace kf::core {

inline constexpr std::string_view kTlsAll = "*";
inline constexpr std::string_view kTlsSubjectName = "SubjectName";
inline constexpr std::string_view kTlsValidityPeriod = "ValidityPeriod";
inline constexpr std::string_view kClusterReady = "Ready";
inline constexpr std::string_view kClusterOffline = "Offline";

struct LocalSecretReference {
  std::string name;
  Json extra;
};

struct KubeFedClusterSpec {
  std::string api_endpoint;
  std::string ca_bundle;  // omitempty; base64 text exactly as stored ([]byte in Go)
  LocalSecretReference secret_ref;
  std::vector<std::string> disabled_tls_validations;  // omitempty
  std::string proxy_url;                              // omitempty
  Json extra;

  static Result<KubeFedClusterSpec> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct ClusterCondition {
  std::string type;             // "Ready" | "Offline"
  std::string status;           // "True" | "False" | "Unknown"
  std::string last_probe_time;  // RFC 3339; "" is Go's zero time, written as null
  std::optional<std::string> last_transition_time;
  std::optional<std::string> reason;
  std::optional<std::string> message;
  Json extra;

  static Result<ClusterCondition> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct KubeFedClusterStatus {
  std::vector<ClusterCondition> conditions;
  std::vector<std::string> zones;  // omitempty; never populated by KubeFed 0.8.1
  std::optional<std::string> region;
  Json extra;

  static Result<KubeFedClusterStatus> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct KubeFedCluster {
  meta::ObjectHeader header;
  KubeFedClusterSpec spec;
  std::optional<KubeFedClusterStatus> status;
  Json extra;

  std::string name() const { return header.name(); }

  static Result<KubeFedCluster> fromJson(const Json& json);
  Json toJson() const;
};

}  // namespace kf::core

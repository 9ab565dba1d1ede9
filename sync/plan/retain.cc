#include "sync/plan/retain.h"

#include "apis/meta/object.h"
#include "sync/plan/unstructured_fields.h"

namespace kf::sync {

namespace {

ApiError invalidBecause(const std::string& context, const ApiError& cause) {
  return makeError(Reason::kInvalid, context + ": " + cause.message);
}

// Go's == on the interface{} values of two port fields: absent and null are both nil; values of
// different dynamic types differ (int64 80 != float64 80).
bool sameRawValue(const Json& a_port, const Json& b_port, const char* key) {
  auto a = a_port.find(key);
  auto b = b_port.find(key);
  const bool a_nil = a == a_port.end() || a->is_null();
  const bool b_nil = b == b_port.end() || b->is_null();
  if (a_nil || b_nil) return a_nil == b_nil;
  if (a->is_structured() || b->is_structured()) return false;
  return goTypeName(*a) == goTypeName(*b) && *a == *b;
}

bool samePort(const Json& desired_port, const Json& cluster_port) {
  return sameRawValue(desired_port, cluster_port, "name") &&
         sameRawValue(desired_port, cluster_port, "protocol") &&
         sameRawValue(desired_port, cluster_port, "port");
}

// nodePort of the matching cluster ports (the last match wins).
void copyNodePorts(Json& desired_ports, const Json& cluster_ports) {
  for (Json& desired_port : desired_ports) {
    if (!desired_port.is_object()) continue;
    for (const Json& cluster_port : cluster_ports) {
      if (!cluster_port.is_object() || !samePort(desired_port, cluster_port)) continue;
      auto node_port = cluster_port.find("nodePort");
      if (node_port != cluster_port.end()) desired_port["nodePort"] = *node_port;
    }
  }
}

Status retainHealthCheckNodePort(Json& desired, const Json& cluster_object) {
  auto port = nestedInt64(cluster_object, {"spec", "healthCheckNodePort"});
  if (!port) {
    return invalidBecause("Error retrieving healthCheckNodePort from service", port.error());
  }
  if (!port.value() || *port.value() <= 0) return boost::outcome_v2::success();
  auto set = setNestedField(desired, *port.value(), {"spec", "healthCheckNodePort"});
  if (!set) return invalidBecause("Error setting healthCheckNodePort for service", set.error());
  return boost::outcome_v2::success();
}

Status retainClusterIps(Json& desired, const Json& cluster_object) {
  auto ip = nestedString(cluster_object, {"spec", "clusterIP"});
  if (!ip) return invalidBecause("Error retrieving clusterIP from cluster service", ip.error());
  if (ip.value() && !ip.value()->empty()) {
    auto set = setNestedField(desired, *ip.value(), {"spec", "clusterIP"});
    if (!set) return invalidBecause("Error setting clusterIP for service", set.error());
  }
  auto ips = nestedStringSlice(cluster_object, {"spec", "clusterIPs"});
  if (!ips) return invalidBecause("Error retrieving clusterIPs from cluster service", ips.error());
  if (ips.value() && !ips.value()->empty()) {
    auto set = setNestedField(desired, *ips.value(), {"spec", "clusterIPs"});
    if (!set) return invalidBecause("Error setting clusterIPs for service", set.error());
  }
  return boost::outcome_v2::success();
}

Status retainNodePorts(Json& desired, const Json& cluster_object) {
  auto cluster_ports = nestedSlice(cluster_object, {"spec", "ports"});
  if (!cluster_ports) {
    return invalidBecause("Error retrieving ports from cluster service", cluster_ports.error());
  }
  if (!cluster_ports.value()) return boost::outcome_v2::success();
  auto desired_ports = nestedSlice(desired, {"spec", "ports"});
  if (!desired_ports)
    return invalidBecause("Error retrieving ports from service", desired_ports.error());
  Json ports = desired_ports.value().value_or(Json::array());
  copyNodePorts(ports, *cluster_ports.value());
  auto set = setNestedField(desired, std::move(ports), {"spec", "ports"});
  if (!set) return invalidBecause("Error setting ports for service", set.error());
  return boost::outcome_v2::success();
}

Status retainServiceFields(Json& desired, const Json& cluster_object) {
  KF_TRYV(retainHealthCheckNodePort(desired, cluster_object));
  KF_TRYV(retainClusterIps(desired, cluster_object));
  return retainNodePorts(desired, cluster_object);
}

Status retainServiceAccountFields(Json& desired, const Json& cluster_object) {
  auto desired_secrets = nestedSlice(desired, {"secrets"});
  if (!desired_secrets) {
    return invalidBecause("Error retrieving secrets from desired service account",
                          desired_secrets.error());
  }
  if (desired_secrets.value() && !desired_secrets.value()->empty()) {
    return boost::outcome_v2::success();
  }
  auto secrets = nestedSlice(cluster_object, {"secrets"});
  if (!secrets) {
    return invalidBecause("Error retrieving secrets from service account", secrets.error());
  }
  if (secrets.value() && !secrets.value()->empty()) {
    auto set = setNestedField(desired, *secrets.value(), {"secrets"});
    if (!set) return invalidBecause("Error setting secrets for service account", set.error());
  }
  return boost::outcome_v2::success();
}

Status retainReplicas(Json& desired, const Json& cluster_object, const Json& federated_object) {
  KF_TRY(retain, nestedBool(federated_object, {"spec", "retainReplicas"}));
  if (!retain || !*retain) return boost::outcome_v2::success();
  KF_TRY(replicas, nestedInt64(cluster_object, {"spec", "replicas"}));
  if (!replicas) return boost::outcome_v2::success();
  return setNestedField(desired, *replicas, {"spec", "replicas"});
}

}  // namespace

Status retainClusterFields(std::string_view target_kind, Json& desired, const Json& cluster_object,
                           const Json& federated_object) {
  // The update is rejected without the member's resourceVersion; finalizers and annotations
  // belong to the member's controllers.
  setMetadataString(desired, "resourceVersion", objectResourceVersion(cluster_object));
  setFinalizers(desired, objectFinalizers(cluster_object));
  setAnnotations(desired, objectAnnotations(cluster_object));
  if (target_kind == "Service") return retainServiceFields(desired, cluster_object);
  if (target_kind == "ServiceAccount") return retainServiceAccountFields(desired, cluster_object);
  return retainReplicas(desired, cluster_object, federated_object);
}

}  // namespace kf::sync

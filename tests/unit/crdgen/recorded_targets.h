#pragma once
// Discovery entries and schemas as a Kubernetes 1.32 API server reports them, trimmed to what
// the generator reads. They stand in for a server in the unit tests.

#include <optional>
#include <string>
#include <vector>

#include "federation/client/discovery.h"

namespace kf::test {

inline ApiResourceInfo resource(std::string group, std::string version, std::string plural,
                                std::string singular, std::string kind, bool namespaced,
                                std::vector<std::string> short_names = {}) {
  ApiResourceInfo info;
  info.group = std::move(group);
  info.version = std::move(version);
  info.name = std::move(plural);
  info.singular_name = std::move(singular);
  info.kind = std::move(kind);
  info.namespaced = namespaced;
  info.short_names = std::move(short_names);
  info.verbs = {"create", "delete", "get", "list", "patch", "update", "watch"};
  return info;
}

inline ApiResourceInfo configMaps() {
  return resource("", "v1", "configmaps", "configmap", "ConfigMap", true, {"cm"});
}
inline ApiResourceInfo secrets() { return resource("", "v1", "secrets", "secret", "Secret", true); }
inline ApiResourceInfo services() {
  return resource("", "v1", "services", "service", "Service", true, {"svc"});
}
inline ApiResourceInfo serviceAccounts() {
  return resource("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true, {"sa"});
}
inline ApiResourceInfo namespaces() {
  return resource("", "v1", "namespaces", "namespace", "Namespace", false, {"ns"});
}
inline ApiResourceInfo events() {
  return resource("", "v1", "events", "event", "Event", true, {"ev"});
}
inline ApiResourceInfo deployments() {
  return resource("apps", "v1", "deployments", "deployment", "Deployment", true, {"deploy"});
}
inline ApiResourceInfo replicaSets() {
  return resource("apps", "v1", "replicasets", "replicaset", "ReplicaSet", true, {"rs"});
}
inline ApiResourceInfo jobs() { return resource("batch", "v1", "jobs", "job", "Job", true); }
// KubeFed's default FTC used extensions/v1beta1, which Kubernetes 1.22 removed.
inline ApiResourceInfo ingresses() {
  return resource("networking.k8s.io", "v1", "ingresses", "ingress", "Ingress", true, {"ing"});
}
inline ApiResourceInfo clusterRoles() {
  return resource("rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", "ClusterRole",
                  false);
}
inline ApiResourceInfo eventsK8sIo() {
  return resource("events.k8s.io", "v1", "events", "event", "Event", true, {"ev"});
}
inline ApiResourceInfo widgets() {
  return resource("example.com", "v1", "widgets", "widget", "Widget", true, {"wd"});
}

// An OpenAPI v3 group-version document (GET /openapi/v3/...) for one kind; `spec_schema` is the
// <Kind>Spec component, referenced as the server does (allOf + $ref).
inline Json openApiDocument(const ApiResourceInfo& target, const Json& spec_schema) {
  const std::string prefix =
      "io.k8s.api." + (target.group.empty() ? "core" : target.group) + "." + target.version + ".";
  Json kind_schema = {
      {"type", "object"},
      {"properties",
       {{"apiVersion", {{"type", "string"}}},
        {"kind", {{"type", "string"}}},
        {"metadata",
         {{"allOf",
           {{{"$ref", "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}}},
          {"default", Json::object()}}}}},
      {"x-kubernetes-group-version-kind",
       {{{"group", target.group}, {"version", target.version}, {"kind", target.kind}}}}};
  Json schemas = {{prefix + target.kind, kind_schema}};
  if (!spec_schema.is_null()) {
    schemas[prefix + target.kind]["properties"]["spec"] = {
        {"allOf", {{{"$ref", "#/components/schemas/" + prefix + target.kind + "Spec"}}}},
        {"default", Json::object()}};
    schemas[prefix + target.kind + "Spec"] = spec_schema;
  }
  return {{"openapi", "3.0.0"}, {"components", {{"schemas", schemas}}}};
}

inline Json int32Field() { return {{"type", "integer"}, {"format", "int32"}}; }

inline Json replicatedSpec() {
  return {{"type", "object"}, {"properties", {{"replicas", int32Field()}}}};
}

inline Json jobSpec() {
  return {{"type", "object"},
          {"properties", {{"parallelism", int32Field()}, {"completions", int32Field()}}}};
}

// The CRD of the custom target, as the server returns it.
inline Json widgetCrd() {
  Json schema = {
      {"type", "object"},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"properties", {{"size", {{"type", "string"}}}, {"count", {{"type", "integer"}}}}}}}}}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "widgets.example.com"}}},
          {"spec",
           {{"group", "example.com"},
            {"scope", "Namespaced"},
            {"names", {{"plural", "widgets"}, {"kind", "Widget"}, {"shortNames", {"wd"}}}},
            {"versions",
             {{{"name", "v1"},
               {"served", true},
               {"storage", true},
               {"schema", {{"openAPIV3Schema", schema}}}}}}}}};
}

}  // namespace kf::test

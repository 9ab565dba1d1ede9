#include "tests/support/simulated_member/api_status.h"

namespace kf::sim {
namespace {

// details.name / group / kind as the API server fills them for a resource error.
Json resourceDetails(const ServedResource& resource, const std::string& name) {
  Json details = Json::object();
  if (!name.empty()) details["name"] = name;
  if (!resource.group.empty()) details["group"] = resource.group;
  details["kind"] = resource.plural;
  return details;
}

}  // namespace

Reply failure(int code, const std::string& reason, const std::string& message, Json details) {
  Json body = {{"kind", "Status"},
               {"apiVersion", "v1"},
               {"metadata", Json::object()},
               {"status", "Failure"},
               {"message", message}};
  if (!reason.empty()) body["reason"] = reason;
  if (!details.is_null()) body["details"] = std::move(details);
  body["code"] = code;
  return {code, std::move(body)};
}

Reply badRequest(const std::string& message) { return failure(400, "BadRequest", message); }

Reply notFound(const ServedResource& resource, const std::string& name) {
  return failure(404, "NotFound", resource.qualifiedName() + " \"" + name + "\" not found",
                 resourceDetails(resource, name));
}

Reply unknownResource() {
  return failure(404, "NotFound", "the server could not find the requested resource",
                 Json::object());
}

Reply alreadyExists(const ServedResource& resource, const std::string& name) {
  return failure(409, "AlreadyExists",
                 resource.qualifiedName() + " \"" + name + "\" already exists",
                 resourceDetails(resource, name));
}

Reply conflict(const ServedResource& resource, const std::string& name) {
  return failure(409, "Conflict",
                 "Operation cannot be fulfilled on " + resource.qualifiedName() + " \"" + name +
                     "\": the object has been modified; please apply your changes to the latest "
                     "version and try again",
                 resourceDetails(resource, name));
}

Reply preconditionFailed(const ServedResource& resource, const std::string& name,
                         const std::string& what, const std::string& wanted,
                         const std::string& stored) {
  // The API server names the kind here, not the resource.
  Json details = {{"name", name}};
  if (!resource.group.empty()) details["group"] = resource.group;
  details["kind"] = resource.kind;
  return failure(409, "Conflict",
                 "Operation cannot be fulfilled on " + resource.kind + " \"" + name + "\": the " +
                     what + " in the precondition (" + wanted + ") does not match the " + what +
                     " in record (" + stored + "). The object might have been modified",
                 std::move(details));
}

Reply invalidField(const ServedResource& resource, const std::string& name,
                   const std::string& field, const std::string& cause_reason,
                   const std::string& detail) {
  Json details = Json::object();
  if (!name.empty()) details["name"] = name;
  if (!resource.group.empty()) details["group"] = resource.group;
  details["kind"] = resource.kind;
  details["causes"] = {{{"reason", cause_reason}, {"message", detail}, {"field", field}}};
  return failure(422, "Invalid",
                 resource.kind + " \"" + name + "\" is invalid: " + field + ": " + detail,
                 std::move(details));
}

Reply namespaceTerminating(const ServedResource& resource, const std::string& name,
                           const std::string& ns) {
  Json details = resourceDetails(resource, name);
  details["causes"] = {{{"reason", "NamespaceTerminating"},
                        {"message", "namespace " + ns + " is being terminated"},
                        {"field", "metadata.namespace"}}};
  return failure(403, "Forbidden",
                 resource.qualifiedName() + " \"" + name +
                     "\" is forbidden: unable to create new content in namespace " + ns +
                     " because it is being terminated",
                 std::move(details));
}

Reply missingNamespace(const std::string& ns) { return notFound(namespaceResource(), ns); }

Json expiredStatus(const std::string& message) { return failure(410, "Expired", message).body; }

Reply unauthorized() { return failure(401, "Unauthorized", "Unauthorized"); }

Reply forbidden(const std::string& message, Json details) {
  return failure(403, "Forbidden", message, std::move(details));
}

Reply methodNotAllowed(const std::string& method) {
  return failure(405, "MethodNotAllowed",
                 "the server does not allow this method on the requested resource (" + method + ")",
                 Json::object());
}

Reply unsupportedMediaType(const std::string& content_type) {
  return failure(415, "UnsupportedMediaType",
                 "the body of the request was in an unknown format (" + content_type +
                     ") - accepted media types include: application/json, "
                     "application/merge-patch+json");
}

Reply deleted(const ServedResource& resource, const std::string& name, const std::string& uid) {
  Json details = resourceDetails(resource, name);
  details["uid"] = uid;
  return {200,
          {{"kind", "Status"},
           {"apiVersion", "v1"},
           {"metadata", Json::object()},
           {"status", "Success"},
           {"details", std::move(details)}}};
}

}  // namespace kf::sim

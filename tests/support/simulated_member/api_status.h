#pragma once
// The Status objects a simulated member answers with, worded as kube-apiserver v1.33 words them
// (the conformance tests compare code, reason, message and details with a real one's).

#include <string>

#include "apis/meta/object.h"
#include "tests/support/simulated_member/served_resources.h"

namespace kf::sim {

// A reply to one API request: an HTTP status code and its JSON body.
struct Reply {
  int code = 200;
  Json body;
};

Reply failure(int code, const std::string& reason, const std::string& message,
              Json details = nullptr);
Reply badRequest(const std::string& message);
// `<plural[.group]> "<name>" not found`.
Reply notFound(const ServedResource& resource, const std::string& name);
// A path that names no served resource.
Reply unknownResource();
Reply alreadyExists(const ServedResource& resource, const std::string& name);
// A write whose resourceVersion is not the stored one.
Reply conflict(const ServedResource& resource, const std::string& name);
// A delete whose preconditions do not hold: `what` is "UID" or "ResourceVersion".
Reply preconditionFailed(const ServedResource& resource, const std::string& name,
                         const std::string& what, const std::string& wanted,
                         const std::string& stored);
// 422 Invalid for one field: `cause_reason` FieldValueInvalid or FieldValueRequired, `detail`
// the text after the field ("Invalid value: \"x\": ..." or "Required value: ...").
Reply invalidField(const ServedResource& resource, const std::string& name,
                   const std::string& field, const std::string& cause_reason,
                   const std::string& detail);
Reply namespaceTerminating(const ServedResource& resource, const std::string& name,
                           const std::string& ns);
Reply missingNamespace(const std::string& ns);
// 410 Expired, e.g. a watch from a resourceVersion older than the kept history.
Json expiredStatus(const std::string& message);
Reply unauthorized();
// RBAC's answer to system:anonymous: `what` is e.g. `configmaps is forbidden: User ... cannot
// list resource "configmaps" in API group "" in the namespace "x"`.
Reply forbidden(const std::string& message, Json details);
Reply methodNotAllowed(const std::string& method);
Reply unsupportedMediaType(const std::string& content_type);
// 200 Success, as a DELETE of most resources answers.
Reply deleted(const ServedResource& resource, const std::string& name, const std::string& uid);

}  // namespace kf::sim

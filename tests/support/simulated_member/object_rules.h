#pragma once
// What the API server does to an object on its way into storage, for the served resources:
// name validation, the fields only the server sets, the defaults of Namespaces and Secrets,
// metadata.generation. Pure functions: the store decides when to call them.

#include <optional>
#include <string>

#include "tests/support/simulated_member/api_status.h"
#include "tests/support/simulated_member/served_resources.h"

namespace kf::sim {

// The object's metadata, made an object if it is missing or is not one.
Json& metadataOf(Json& object);

// A 422 for a name the resource does not accept (RFC 1123 label for namespaces, subdomain for
// everything else), or nullopt when it is valid.
std::optional<Reply> invalidName(const ServedResource& resource, const std::string& name);

// The object as a create stores it (before its resourceVersion is set): fields only the server
// writes dropped or set (uid, creationTimestamp, generation), kind and apiVersion set, the
// status of a status-subresource resource dropped, a Namespace's and a Secret's defaults.
// Fails with a 400 when a Secret's data is not base64.
Result<Json> prepareCreate(const ServedResource& resource, Json object, const std::string& uid,
                           const std::string& now);

// The object as an update of the main resource stores it: what only the server writes, and the
// status of a status-subresource resource (and a Namespace's spec), kept from `stored`;
// generation raised when anything outside metadata and status changed.
Result<Json> prepareUpdate(const ServedResource& resource, Json object, const Json& stored);

// The object as an update of its status subresource stores it: `stored` with the given status.
Json prepareStatusUpdate(const Json& object, const Json& stored);

// Whether two versions of an object differ in more than their resourceVersion (an update that
// changes nothing is not written, as etcd3 storage skips it).
bool sameContent(const Json& a, const Json& b);

// RFC 7386 JSON merge patch.
void applyMergePatch(Json& target, const Json& patch);

}  // namespace kf::sim

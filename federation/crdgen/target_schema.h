#pragma once
// Where the target's schema comes from (spec §1.7). KubeFed only needs it to decide whether
// Federated<Kind> declares `template` and `retainReplicas`, so only `spec` is resolved.

#include <optional>
#include <string>

#include "federation/client/discovery.h"
#include "federation/client/rest_client.h"

namespace kf {

// spec.versions[0].schema.openAPIV3Schema of a CRD (the first version, whatever the target
// version: KubeFed does the same). nullopt when that version has no schema.
std::optional<Json> schemaFromCrd(const Json& crd);

// "apps/v1, Kind=Deployment" ("/v1, Kind=ConfigMap" for core), as error messages name a GVK.
std::string gvkString(const ApiResourceInfo& target);

// The schema of the target's kind in an OpenAPI v3 group-version document
// (components.schemas, matched by x-kubernetes-group-version-kind), with `spec` inlined from its
// $ref so declaresInt32Replicas() can read it. nullopt when the kind is not in the document.
std::optional<Json> schemaFromOpenApiV3(const Json& document, const ApiResourceInfo& target);

// "/openapi/v3/api/v1" or "/openapi/v3/apis/apps/v1".
std::string openApiV3Path(const ApiResourceInfo& target);

// From the server: the CRD of a non-core target if there is one, else the OpenAPI v3 document.
// A kind missing from OpenAPI is an error ("Unable to find openapi schema for ...").
Result<std::optional<Json>> fetchTargetSchema(RestClient& client, const ApiResourceInfo& target);

}  // namespace kf

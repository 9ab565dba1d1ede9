#pragma once
// The two hashes a PropagatedVersion records for a federated object (spec §2.5.7). They must be
// bit-exact with KubeFed's: its e2e suite recomputes them and waits for the status to match, and
// a controller restart compares them with what is stored to decide whether members are current.

#include <nlohmann/json.hpp>

#include "apis/encoding/go_json.h"

namespace kf {

// MD5 hex of the Go encoding of spec.template plus "\n". "" when spec or spec.template is
// absent, or spec is null. Errors (as KubeFed's) when spec is not an object or the template is
// not an object (null included), or holds a number Go cannot encode.
EncodeResult templateVersion(const Json& federated_object);

// MD5 hex of `{"overrides":X}` plus "\n", X being spec.overrides after KubeFed's round trip
// through its typed override structs: items {clusterName, clusterOverrides} and overrides
// {op, path, value} in struct field order, empty op / clusterOverrides and null values omitted,
// unknown fields dropped, keys matched case-insensitively, every number inside a value turned
// into a float64. "" when spec is absent or null. Errors where Go's typed decoding fails: a
// field of the wrong JSON type (say clusterName: 5), spec or overrides of the wrong shape, a
// non-string apiVersion/kind or non-object metadata, a number Go cannot encode anywhere.
//
// Not reproduced: Go also decodes metadata into ObjectMeta and fails on ill-typed metadata
// fields; the API server never returns those.
EncodeResult overridesVersion(const Json& federated_object);

// The bytes overridesVersion hashes (`{"overrides":...}` and "\n"), for logs and tests; "" where
// overridesVersion returns "".
EncodeResult overridesHashInput(const Json& federated_object);

}  // namespace kf

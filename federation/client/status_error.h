#pragma once
// Turns a non-2xx API server response into a typed ApiError. The server usually sends a
// metav1.Status; when it does not (a proxy, a plain-text 503), the HTTP code decides.

#include <optional>
#include <string_view>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"

namespace kf {

// `retry_after_header` is the raw Retry-After value, if any (seconds only, as the API server
// sends it).
ApiError errorFromResponse(int http_code, std::string_view body,
                           std::optional<std::string_view> retry_after_header);

// A Status object found inside a watch ERROR event.
ApiError errorFromStatusObject(const Json& status);

}  // namespace kf

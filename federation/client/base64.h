#pragma once
// Standard (RFC 4648 section 4) base64, as kubeconfig "-data" fields and Kubernetes Secrets use it.

#include <optional>
#include <string>
#include <string_view>

namespace kf {

std::string base64Encode(std::string_view bytes);

// nullopt when the text is not valid base64. Line breaks are skipped (PEM-style wrapped data
// shows up in hand-written kubeconfigs); missing trailing padding is tolerated.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace kf

#pragma once
// metav1.Time as the API writes it: RFC 3339 in UTC with whole seconds, "2006-01-02T15:04:05Z"
// (conditions' lastProbeTime/lastTransitionTime, Events' timestamps).

#include <chrono>
#include <string>

namespace kf::meta {

std::string formatTime(std::chrono::system_clock::time_point time);

}  // namespace kf::meta

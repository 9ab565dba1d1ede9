#pragma once
// Watch events as the API server streams them: one JSON object per line,
// {"type":"ADDED","object":{...}}, and BOOKMARKs that carry only a resourceVersion.

#include <cstdint>
#include <memory>
#include <string>

#include "apis/meta/object.h"
#include "tests/support/simulated_member/served_resources.h"

namespace kf::sim {

enum class EventType;

using EventLine = std::shared_ptr<const std::string>;

EventLine eventLine(EventType type, const Json& object);
EventLine bookmarkLine(const ServedResource& resource, std::uint64_t resource_version);
// An ERROR event carrying a Status (e.g. 410 Expired).
EventLine errorLine(const Json& status);

}  // namespace kf::sim

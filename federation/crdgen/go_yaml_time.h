#pragma once
// The timestamps go-yaml v2 recognises in unquoted text: what Go's time.Parse accepts with
// "2006-1-2T15:4:5.999999999Z07:00" (or a lower-case t), "2006-1-2 15:4:5.999999999" or
// "2006-1-2". Its writer quotes such strings; Kubernetes' YAML reading keeps them as strings.

#include <string_view>

namespace kf::goyaml {

// Four-digit year, month 1-12, a day that exists in that month; with a time, hours 0-23, minutes
// and seconds 0-59, a fraction after '.' or ','; a zone ("Z" or "+hh:mm") after a 'T' or 't'.
bool isTimestamp(std::string_view text);

}  // namespace kf::goyaml

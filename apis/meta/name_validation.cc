#include "apis/meta/name_validation.h"

#include <regex>

#include "apis/meta/join.h"

namespace kf::meta {
namespace {

constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::size_t kDns1123SubdomainMaxLength = 253;
constexpr std::size_t kDns1035LabelMaxLength = 63;

std::string dns1123SubdomainFmt() {
  return std::string(kDns1123LabelFmt) + "(\\." + std::string(kDns1123LabelFmt) + ")*";
}

// validation.RegexError: the examples are each followed by ", " and joined with " or ",
// which is where Kubernetes' double space in "'my-name',  or 'abc-123'" comes from.
std::string regexError(std::string msg, std::string_view fmt,
                       const std::vector<std::string_view>& examples) {
  if (examples.empty()) return msg + " (regex used for validation is '" + std::string(fmt) + "')";
  msg += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) msg += " or ";
    msg += "'" + std::string(examples[i]) + "', ";
  }
  return msg + "regex used for validation is '" + std::string(fmt) + "')";
}

std::string maxLenError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

bool fullMatch(std::string_view value, const std::string& pattern) {
  static thread_local std::string cached_pattern;
  static thread_local std::regex cached;
  if (cached_pattern != pattern) {
    cached = std::regex(pattern, std::regex::ECMAScript);
    cached_pattern = pattern;
  }
  return std::regex_match(value.begin(), value.end(), cached);
}

}  // namespace

std::vector<std::string> dns1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errors.push_back(maxLenError(kDns1123SubdomainMaxLength));
  }
  const std::string fmt = dns1123SubdomainFmt();
  if (!fullMatch(value, fmt)) {
    errors.push_back(regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
        "or '.', and must start and end with an alphanumeric character",
        fmt, {"example.com"}));
  }
  return errors;
}

std::vector<std::string> dns1035LabelErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kDns1035LabelMaxLength) errors.push_back(maxLenError(kDns1035LabelMaxLength));
  if (!fullMatch(value, std::string(kDns1035LabelFmt))) {
    errors.push_back(regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
        "an alphabetic character, and end with an alphanumeric character",
        kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errors;
}

// KubeFed reports a name that breaks both rules (too long and malformed) as one error, its
// messages joined by ",".
ErrorList validateDns1123Subdomain(std::string_view value, const FieldPath& path) {
  const auto messages = dns1123SubdomainErrors(value);
  if (messages.empty()) return {};
  return {invalid(path, BadValue::quoted(value), joinWith(messages, ","))};
}

}  // namespace kf::meta

namespace kf::meta {

ErrorList validateEnumString(std::string_view value, const FieldPath& path,
                             const std::vector<std::string>& accepted) {
  if (value.empty()) return {required(path)};
  for (const auto& candidate : accepted) {
    if (candidate == value) return {};
  }
  return {notSupported(path, value, accepted)};
}

}  // namespace kf::meta

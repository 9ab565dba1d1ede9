#include "apis/meta/name_validation.h"

#include <algorithm>
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
std::string regexError(std::string_view message, std::string_view fmt,
                       const std::vector<std::string_view>& examples) {
  std::string msg(message);
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

constexpr std::size_t kQualifiedNameMaxLength = 63;
constexpr std::size_t kLabelValueMaxLength = 63;
constexpr std::string_view kQualifiedNameFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueFormat = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kQualifiedNameMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";

bool isAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool isQualifiedNamePart(std::string_view text) {
  if (text.empty() || !isAlphanumeric(text.front()) || !isAlphanumeric(text.back())) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return isAlphanumeric(c) || c == '-' || c == '_' || c == '.'; });
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

std::vector<std::string> qualifiedNameErrors(std::string_view value) {
  std::vector<std::string> errors;
  std::string_view name = value;
  const auto slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errors.push_back("a qualified name " +
                       regexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                  {"MyName", "my.name", "123-abc"}) +
                       " with an optional DNS subdomain prefix and '/' (e.g. "
                       "'example.com/MyName')");
      return errors;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errors.push_back("prefix part must be non-empty");
    } else {
      for (const auto& message : dns1123SubdomainErrors(prefix)) {
        errors.push_back("prefix part " + message);
      }
    }
  }
  if (name.empty()) {
    errors.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errors.push_back("name part " + maxLenError(kQualifiedNameMaxLength));
  }
  if (!isQualifiedNamePart(name)) {
    errors.push_back("name part " + regexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                               {"MyName", "my.name", "123-abc"}));
  }
  return errors;
}

std::vector<std::string> labelValueErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelValueMaxLength) errors.push_back(maxLenError(kLabelValueMaxLength));
  if (!value.empty() && !isQualifiedNamePart(value)) {
    errors.push_back(
        regexError(kLabelValueMessage, kLabelValueFormat, {"MyValue", "my_value", "12345"}));
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

#include "federation/client/exec_credential.h"

#include "apis/meta/object.h"

namespace kf {
namespace {

using OrderedJson = nlohmann::ordered_json;

ApiError execError(const std::string& problem) { return makeError(Reason::kBadConfig, problem); }

// `count` decimal digits at `pos`.
std::optional<int> digitsAt(std::string_view text, std::size_t pos, std::size_t count) {
  if (pos + count > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// ".123456789" at `pos` (advanced past it): nanoseconds, digits beyond the ninth dropped.
std::optional<std::chrono::nanoseconds> fractionAt(std::string_view text, std::size_t& pos) {
  if (pos >= text.size() || text[pos] != '.') return std::chrono::nanoseconds(0);
  ++pos;
  const std::size_t start = pos;
  std::int64_t nanos = 0;
  int scale = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (scale < 9) {
      nanos = nanos * 10 + (text[pos] - '0');
      ++scale;
    }
    ++pos;
  }
  if (pos == start) return std::nullopt;
  for (; scale < 9; ++scale) nanos *= 10;
  return std::chrono::nanoseconds(nanos);
}

// "Z" or "+hh:mm"/"-hh:mm" ending the text: the offset east of UTC.
std::optional<std::chrono::minutes> offsetAt(std::string_view text, std::size_t pos) {
  if (pos + 1 == text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    return std::chrono::minutes(0);
  }
  if (pos + 6 != text.size() || (text[pos] != '+' && text[pos] != '-') || text[pos + 3] != ':') {
    return std::nullopt;
  }
  const auto hours = digitsAt(text, pos + 1, 2);
  const auto minutes = digitsAt(text, pos + 4, 2);
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  const std::chrono::minutes offset(*hours * 60 + *minutes);
  return text[pos] == '-' ? -offset : offset;
}

std::string stringField(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Result<std::optional<std::chrono::system_clock::time_point>> expiryOf(const Json& status) {
  const auto it = status.find("expirationTimestamp");
  if (it == status.end() || it->is_null()) {
    return std::optional<std::chrono::system_clock::time_point>();
  }
  const auto expiry = it->is_string() ? parseExpirationTimestamp(it->get<std::string>())
                                      : std::optional<std::chrono::system_clock::time_point>();
  if (!expiry) {
    return execError("decoding stdout: status.expirationTimestamp is not an RFC 3339 time");
  }
  return std::optional<std::chrono::system_clock::time_point>(expiry);
}

// The certificate and key of the status, checked to belong together; null when it has neither.
Result<std::shared_ptr<const ClientCertificate>> certificateOf(const Json& status) {
  auto certificate = std::make_shared<ClientCertificate>(ClientCertificate{
      stringField(status, "clientCertificateData"), stringField(status, "clientKeyData")});
  if (certificate->cert_pem.empty() && certificate->key_pem.empty()) {
    return std::shared_ptr<const ClientCertificate>();
  }
  if (certificate->cert_pem.empty() || certificate->key_pem.empty()) {
    return execError("exec plugin returned only certificate or key, not both");
  }
  if (auto valid = validateClientCertificate(*certificate); !valid) {
    return execError("failed parsing client key/certificate: " + valid.error().message);
  }
  return std::shared_ptr<const ClientCertificate>(std::move(certificate));
}

}  // namespace

Result<bool> execInteractive(const ExecConfig& config) {
  if (config.interactive_mode == "Always") {
    return execError(
        "exec plugin cannot support interactive mode: standard input is not a terminal "
        "(kubefed-cpp runs credential plugins without one; set interactiveMode to Never or "
        "IfAvailable and log in with the plugin beforehand)");
  }
  return false;
}

std::string execInfo(const ExecConfig& config, bool interactive) {
  OrderedJson spec = OrderedJson::object();
  if (!config.cluster.is_null()) spec["cluster"] = config.cluster;
  spec["interactive"] = interactive;
  OrderedJson credential = {
      {"kind", "ExecCredential"}, {"apiVersion", config.api_version}, {"spec", spec}};
  return credential.dump();
}

Result<ExecCredential> parseExecCredential(const std::string& output, const ExecConfig& config) {
  Json document;
  try {
    document = Json::parse(output);
  } catch (const Json::parse_error& e) {
    // Only the position: the output may hold a token.
    return execError("decoding stdout: not JSON (syntax error at byte " + std::to_string(e.byte) +
                     ")");
  }
  if (!document.is_object()) return execError("decoding stdout: not a JSON object");
  const std::string api_version = stringField(document, "apiVersion");
  if (api_version.empty()) return execError("decoding stdout: Object 'apiVersion' is missing");
  if (api_version != config.api_version) {
    return execError("exec plugin is configured to use API version " + config.api_version +
                     ", plugin returned version " + api_version);
  }
  const std::string kind = stringField(document, "kind");
  if (kind != "ExecCredential") {
    return execError("decoding stdout: kind \"" + kind + "\" is not ExecCredential");
  }
  const auto status = document.find("status");
  if (status == document.end() || !status->is_object()) {
    return execError("exec plugin didn't return a status field");
  }
  ExecCredential credential;
  credential.token = stringField(*status, "token");
  KF_TRY(certificate, certificateOf(*status));
  if (credential.token.empty() && !certificate) {
    return execError("exec plugin didn't return a token or cert/key pair");
  }
  credential.certificate = std::move(certificate);
  KF_TRY(expiry, expiryOf(*status));
  credential.expiry = expiry;
  return credential;
}

std::optional<std::chrono::system_clock::time_point> parseExpirationTimestamp(
    std::string_view text) {
  const auto year = digitsAt(text, 0, 4);
  const auto month = digitsAt(text, 5, 2);
  const auto day = digitsAt(text, 8, 2);
  const auto hour = digitsAt(text, 11, 2);
  const auto minute = digitsAt(text, 14, 2);
  const auto second = digitsAt(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' || *hour > 23 ||
      *minute > 59 || *second > 59) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  std::size_t pos = 19;
  const auto fraction = fractionAt(text, pos);
  if (!fraction) return std::nullopt;
  const auto offset = offsetAt(text, pos);
  if (!offset) return std::nullopt;
  const auto utc = std::chrono::sys_days(date) + std::chrono::hours(*hour) +
                   std::chrono::minutes(*minute) + std::chrono::seconds(*second) - *offset;
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(utc + *fraction);
}

}  // namespace kf

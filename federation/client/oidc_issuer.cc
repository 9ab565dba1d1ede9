#include "federation/client/oidc_issuer.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "federation/client/base64.h"

namespace kf {
namespace {

constexpr auto kIssuerTimeout = std::chrono::seconds(30);
constexpr std::size_t kQuotedBodyLimit = 80;

struct SplitUrl {
  std::string origin;  // https://host[:port]
  std::string target;  // /path?query
};

// Only https: the refresh-token and the client secret must not travel in the clear (and an API
// server accepts only https issuers anyway).
Result<SplitUrl> splitHttpsUrl(const std::string& url) {
  constexpr std::string_view kScheme = "https://";
  if (!url.starts_with(kScheme)) {
    return makeError(Reason::kBadConfig, "\"" + url + "\" is not an https:// URL");
  }
  const std::size_t path_start = url.find_first_of("/?#", kScheme.size());
  SplitUrl split{url.substr(0, path_start), "/"};
  if (path_start != std::string::npos) {
    std::string rest = url.substr(path_start);
    rest = rest.substr(0, rest.find('#'));
    split.target = rest.starts_with('/') ? rest : "/" + rest;
  }
  if (split.origin.size() == kScheme.size()) {
    return makeError(Reason::kBadConfig, "\"" + url + "\" has no host");
  }
  return split;
}

std::string quotedStart(const std::string& body) {
  std::string start = body.substr(0, kQuotedBodyLimit);
  if (body.size() > kQuotedBodyLimit) start += "...";
  return nlohmann::json(start).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string formDecode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
               hexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The fields of a token endpoint's answer this client reads, from JSON or (for endpoints that
// say so in Content-Type) form-encoded text.
struct TokenAnswer {
  bool parsed = false;
  std::string id_token;
  std::string refresh_token;
  std::string error;
  std::string error_description;
};

TokenAnswer parseFormAnswer(const std::string& body) {
  TokenAnswer answer{.parsed = true};
  std::size_t start = 0;
  while (start <= body.size()) {
    const std::size_t end = std::min(body.find('&', start), body.size());
    const std::string pair = body.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    const std::string key = formDecode(pair.substr(0, equals));
    const std::string value =
        equals == std::string::npos ? "" : formDecode(pair.substr(equals + 1));
    if (key == "id_token") answer.id_token = value;
    if (key == "refresh_token") answer.refresh_token = value;
    if (key == "error") answer.error = value;
    if (key == "error_description") answer.error_description = value;
    start = end + 1;
  }
  return answer;
}

TokenAnswer parseJsonAnswer(const std::string& body) {
  const nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (!json.is_object()) return {};
  auto text = [&json](const char* key) {
    const auto it = json.find(key);
    return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  return {true, text("id_token"), text("refresh_token"), text("error"), text("error_description")};
}

TokenAnswer parseTokenAnswer(const HttpResponse& response) {
  std::string media_type = response.header("content-type").value_or("");
  media_type = media_type.substr(0, media_type.find(';'));
  while (!media_type.empty() && media_type.back() == ' ') media_type.pop_back();
  if (media_type == "application/x-www-form-urlencoded" || media_type == "text/plain") {
    return parseFormAnswer(response.body);
  }
  return parseJsonAnswer(response.body);
}

// Why a token request failed, in oauth2's words where it has them. Never the body: an answer that
// is not an error report may hold tokens.
std::optional<std::string> refusal(const HttpResponse& response, const TokenAnswer& answer) {
  if (!answer.error.empty()) {
    std::string why = "oauth2: " + nlohmann::json(answer.error).dump();
    if (!answer.error_description.empty()) {
      why += " " + nlohmann::json(answer.error_description).dump();
    }
    return why;
  }
  if (response.status < 200 || response.status > 299) {
    return "oauth2: cannot fetch token: the token endpoint answered HTTP " +
           std::to_string(response.status);
  }
  if (!answer.parsed) return "oauth2: cannot parse the token endpoint's answer as JSON";
  return std::nullopt;
}

}  // namespace

std::string formEncode(const std::string& value) {
  std::string out;
  for (const unsigned char c : value) {
    const bool unreserved = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                            (c >= 'A' && c <= 'Z') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

OidcIssuer::OidcIssuer(std::string issuer_url, std::string ca_pem, std::string client_id,
                       std::string client_secret)
    : issuer_url_(std::move(issuer_url)),
      ca_pem_(std::move(ca_pem)),
      client_id_(std::move(client_id)),
      client_secret_(std::move(client_secret)) {}

Result<HttpResponse> OidcIssuer::send(const std::string& url, HttpRequest request) const {
  KF_TRY(split, splitHttpsUrl(url));
  RestConfig config;
  config.server = split.origin;
  config.tls.ca_pem = ca_pem_;
  config.server_role = "OIDC issuer";
  KF_TRY(transport, makeTransport(config));
  request.target = split.target;
  request.headers["User-Agent"] = config.user_agent;
  request.timeout = kIssuerTimeout;
  return transport->roundTrip(request);
}

Result<std::string> OidcIssuer::tokenEndpoint() const {
  std::string discovery = issuer_url_;
  while (discovery.ends_with('/')) discovery.pop_back();
  discovery += "/.well-known/openid-configuration";
  auto response = send(discovery, {.method = "GET", .headers = {{"Accept", "application/json"}}});
  if (!response) {
    return makeError(response.error().reason,
                     "oidc: querying " + discovery + ": " + response.error().message);
  }
  if (response.value().status != 200) {
    return makeError(Reason::kBadConfig, "oidc: failed to query metadata endpoint " + discovery +
                                             ": HTTP " + std::to_string(response.value().status) +
                                             " " + quotedStart(response.value().body));
  }
  const nlohmann::json metadata = nlohmann::json::parse(response.value().body, nullptr, false);
  if (!metadata.is_object()) {
    return makeError(Reason::kBadConfig, "oidc: failed to decode provider discovery object at " +
                                             discovery + ": not a JSON object");
  }
  const auto token_url = metadata.find("token_endpoint");
  if (token_url == metadata.end() || !token_url->is_string() ||
      token_url->get<std::string>().empty()) {
    return makeError(Reason::kBadConfig, "oidc: discovery object at " + discovery +
                                             " doesn't contain a token_endpoint");
  }
  return token_url->get<std::string>();
}

Result<RefreshedTokens> OidcIssuer::refreshAt(const std::string& token_url,
                                              const std::string& refresh_token,
                                              ClientAuth client_auth) const {
  HttpRequest request{.method = "POST"};
  request.headers["Content-Type"] = "application/x-www-form-urlencoded";
  request.body = "grant_type=refresh_token&refresh_token=" + formEncode(refresh_token);
  if (client_auth == ClientAuth::kBasicHeader) {
    request.headers["Authorization"] =
        "Basic " + base64Encode(formEncode(client_id_) + ":" + formEncode(client_secret_));
  } else {
    if (!client_id_.empty()) request.body += "&client_id=" + formEncode(client_id_);
    if (!client_secret_.empty()) request.body += "&client_secret=" + formEncode(client_secret_);
  }
  auto response = send(token_url, std::move(request));
  if (!response) {
    return makeError(response.error().reason,
                     "failed to refresh token: " + token_url + ": " + response.error().message);
  }
  const TokenAnswer answer = parseTokenAnswer(response.value());
  if (auto why = refusal(response.value(), answer)) {
    return makeError(Reason::kUnauthorized, "failed to refresh token: " + *why);
  }
  if (answer.id_token.empty()) {
    return makeError(Reason::kBadConfig,
                     "token response did not contain an id_token, either the scope \"openid\" "
                     "wasn't requested upon login, or the provider doesn't support id_tokens as "
                     "part of the refresh response");
  }
  return RefreshedTokens{answer.id_token, answer.refresh_token};
}

Result<RefreshedTokens> OidcIssuer::refresh(const std::string& refresh_token) {
  KF_TRY(token_url, tokenEndpoint());
  if (client_auth_ != ClientAuth::kUnknown)
    return refreshAt(token_url, refresh_token, client_auth_);
  auto in_header = refreshAt(token_url, refresh_token, ClientAuth::kBasicHeader);
  // Endpoints differ in where they want the client's credentials: a refusal may mean "not there".
  if (!in_header && in_header.error().reason == Reason::kUnauthorized) {
    auto in_body = refreshAt(token_url, refresh_token, ClientAuth::kFormBody);
    if (in_body) client_auth_ = ClientAuth::kFormBody;
    return in_body;
  }
  if (in_header) client_auth_ = ClientAuth::kBasicHeader;
  return in_header;
}

}  // namespace kf

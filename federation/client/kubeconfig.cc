#include "federation/client/kubeconfig.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "federation/client/kubeconfig_auth.h"
#include "federation/client/kubeconfig_fields.h"
#include "federation/client/server_url.h"

namespace kf {
namespace {

namespace fs = std::filesystem;
namespace kcfg = kubeconfig_fields;

constexpr std::string_view kWhitespace = " \t\r\n";

// ---- errors ------------------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string availableContexts(const Kubeconfig& config) {
  const std::vector<std::string> names = config.contextNames();
  if (names.empty()) return "(no contexts defined)";
  return "(available: " + joined(names, ", ") + ")";
}

// ---- files -------------------------------------------------------------------------------------

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(kWhitespace);
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

// ---- entries -----------------------------------------------------------------------------------

Result<KubeconfigCluster> parseCluster(const YAML::Node& body, const kcfg::ParseContext& file,
                                       const std::string& path) {
  KubeconfigCluster cluster;
  cluster.source = file.source;
  KF_TRY(server, kcfg::stringField(body, "server", file, path));
  KF_TRY(ca_file, kcfg::pathField(body, "certificate-authority", file, path));
  KF_TRY(ca_data, kcfg::dataField(body, "certificate-authority-data", file, path));
  KF_TRY(insecure, kcfg::boolField(body, "insecure-skip-tls-verify", file, path));
  KF_TRY(server_name, kcfg::stringField(body, "tls-server-name", file, path));
  KF_TRY(proxy, kcfg::stringField(body, "proxy-url", file, path));
  KF_TRY(disable_compression, kcfg::boolField(body, "disable-compression", file, path));
  KF_TRY(exec_extension, kcfg::parseExecExtension(body, file, path));
  cluster.server = std::move(server);
  cluster.certificate_authority = std::move(ca_file);
  cluster.certificate_authority_data = std::move(ca_data);
  cluster.insecure_skip_tls_verify = insecure;
  cluster.tls_server_name = std::move(server_name);
  cluster.proxy_url = std::move(proxy);
  cluster.disable_compression = disable_compression;
  cluster.exec_extension = std::move(exec_extension);
  return cluster;
}

Result<KubeconfigUser> parseUser(const YAML::Node& body, const kcfg::ParseContext& file,
                                 const std::string& path) {
  KubeconfigUser user;
  user.source = file.source;
  KF_TRY(cert_file, kcfg::pathField(body, "client-certificate", file, path));
  KF_TRY(cert_data, kcfg::dataField(body, "client-certificate-data", file, path));
  KF_TRY(key_file, kcfg::pathField(body, "client-key", file, path));
  KF_TRY(key_data, kcfg::dataField(body, "client-key-data", file, path));
  KF_TRY(token, kcfg::stringField(body, "token", file, path));
  KF_TRY(token_file, kcfg::pathField(body, "tokenFile", file, path));
  user.client_certificate = std::move(cert_file);
  user.client_certificate_data = std::move(cert_data);
  user.client_key = std::move(key_file);
  user.client_key_data = std::move(key_data);
  user.token = std::move(token);
  user.token_file = std::move(token_file);
  KF_TRYV(kcfg::parseUserAuth(body, file, path, user));
  return user;
}

Result<KubeconfigContext> parseContext(const YAML::Node& body, const kcfg::ParseContext& file,
                                       const std::string& path) {
  KubeconfigContext context;
  context.source = file.source;
  KF_TRY(cluster, kcfg::stringField(body, "cluster", file, path));
  KF_TRY(user, kcfg::stringField(body, "user", file, path));
  KF_TRY(namespace_name, kcfg::stringField(body, "namespace", file, path));
  context.cluster = std::move(cluster);
  context.user = std::move(user);
  context.namespace_name = std::move(namespace_name);
  return context;
}

// One of the named lists ("clusters", "users", "contexts"): [{name: n, <body_key>: {...}}].
template <class Entry, class ParseBody>
Result<std::map<std::string, Entry>> parseSection(const YAML::Node& root, const char* section,
                                                  const char* body_key,
                                                  const kcfg::ParseContext& file,
                                                  ParseBody parse_body) {
  std::map<std::string, Entry> entries;
  const YAML::Node list = root[section];
  if (kcfg::isAbsent(list)) return entries;
  if (!list.IsSequence()) return kcfg::fieldError(file.source, section, "expected a list");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const std::string index_path = std::string(section) + "[" + std::to_string(i) + "]";
    if (!item.IsMap()) return kcfg::fieldError(file.source, index_path, "expected a mapping");
    KF_TRY(name, kcfg::stringField(item, "name", file, index_path));
    if (name.empty()) return kcfg::fieldError(file.source, index_path + ".name", "missing");
    const std::string path = kcfg::entryPath(section, name);
    if (entries.contains(name)) return kcfg::fieldError(file.source, path, "duplicate name");
    const YAML::Node body = item[body_key];
    const std::string body_path = path + "." + body_key;
    if (!kcfg::isAbsent(body) && !body.IsMap()) {
      return kcfg::fieldError(file.source, body_path, "expected a mapping");
    }
    // An absent body is an empty one; whatever it lacks is reported when a context uses it.
    KF_TRY(entry,
           parse_body(body.IsMap() ? body : YAML::Node(YAML::NodeType::Map), file, body_path));
    entries.emplace(name, std::move(entry));
  }
  return entries;
}

Result<Kubeconfig> kubeconfigFromYaml(const YAML::Node& root, const kcfg::ParseContext& file) {
  Kubeconfig config;
  config.sources.push_back(file.source);
  if (kcfg::isAbsent(root)) return config;
  if (!root.IsMap()) return kcfg::fileError(file.source, "expected a mapping at the top level");
  KF_TRY(clusters,
         parseSection<KubeconfigCluster>(root, "clusters", "cluster", file, parseCluster));
  KF_TRY(users, parseSection<KubeconfigUser>(root, "users", "user", file, parseUser));
  KF_TRY(contexts,
         parseSection<KubeconfigContext>(root, "contexts", "context", file, parseContext));
  KF_TRY(current, kcfg::stringField(root, "current-context", file, ""));
  config.clusters = std::move(clusters);
  config.users = std::move(users);
  config.contexts = std::move(contexts);
  config.current_context = std::move(current);
  return config;
}

// ---- locating files ----------------------------------------------------------------------------

// KUBECONFIG entries in order, without empties or repeats (a repeated file adds nothing).
std::vector<std::string> splitKubeconfigList(const std::string& list) {
  std::vector<std::string> paths;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(':', start), list.size());
    std::string path = list.substr(start, end - start);
    if (!path.empty() && seen.insert(path).second) paths.push_back(std::move(path));
    start = end + 1;
  }
  return paths;
}

Result<Kubeconfig> loadKubeconfigList(const std::string& list,
                                      const std::vector<std::string>& paths) {
  std::vector<Kubeconfig> loaded;
  for (const std::string& path : paths) {
    std::error_code ec;
    // Like kubectl, a listed file that does not exist is skipped; any other problem is reported.
    if (!fs::exists(path, ec) && !ec) continue;
    KF_TRY(config, loadKubeconfigFile(path));
    loaded.push_back(std::move(config));
  }
  if (loaded.empty()) {
    return makeError(Reason::kBadConfig,
                     "KUBECONFIG \"" + list + "\": none of the listed files exist");
  }
  return mergeKubeconfigs(loaded);
}

Result<Kubeconfig> loadDefaultKubeconfig(const std::string& home) {
  if (home.empty()) {
    return makeError(Reason::kBadConfig,
                     "no kubeconfig: --kubeconfig, KUBECONFIG and HOME are all unset");
  }
  return loadKubeconfigFile((fs::path(home) / ".kube" / "config").string());
}

// ---- building a RestConfig ---------------------------------------------------------------------

Result<const KubeconfigContext*> selectContext(const Kubeconfig& config, const std::string& name) {
  if (name.empty()) {
    return kcfg::fileError(config.origin(), "current-context: not set and no context was given " +
                                                availableContexts(config));
  }
  const auto it = config.contexts.find(name);
  if (it == config.contexts.end()) {
    return kcfg::fileError(config.origin(), "contexts: context \"" + name + "\" not found " +
                                                availableContexts(config));
  }
  return &it->second;
}

// "https://h:6443/prefix/" -> "https://h:6443/prefix"; a bare host:port gets https, as in kubectl.
Result<std::string> normalizedServer(const std::string& server, const std::string& source,
                                     const std::string& field) {
  if (server.empty()) return kcfg::fieldError(source, field, "missing");
  std::string out = server;
  if (out.find("://") == std::string::npos) out = "https://" + out;
  while (!out.empty() && out.back() == '/') out.pop_back();
  auto parsed = parseServerUrl(out);
  if (!parsed) return kcfg::fieldError(source, field, parsed.error().message);
  return out;
}

// Inline data wins over the file, as in client-go; "" when neither is set.
Result<std::string> pemFromDataOrFile(const std::string& data, const std::string& file,
                                      const std::string& source, const std::string& path,
                                      const char* file_key) {
  const std::string data_field = path + "." + file_key + "-data";
  if (!data.empty()) {
    if (!kcfg::looksLikePem(data))
      return kcfg::fieldError(source, data_field, "does not contain PEM data");
    return data;
  }
  if (file.empty()) return std::string();
  const std::string file_field = path + "." + file_key;
  KF_TRY(contents, kcfg::readReferencedFile(source, file_field, file));
  if (!kcfg::looksLikePem(contents)) {
    return kcfg::fieldError(source, file_field, "\"" + file + "\" does not contain PEM data");
  }
  return contents;
}

Status applyCluster(const std::string& name, const KubeconfigCluster& cluster, RestConfig& out) {
  const std::string path = kcfg::entryPath("clusters", name) + ".cluster";
  KF_TRY(server, normalizedServer(cluster.server, cluster.source, path + ".server"));
  const bool has_ca =
      !cluster.certificate_authority_data.empty() || !cluster.certificate_authority.empty();
  if (cluster.insecure_skip_tls_verify && has_ca) {
    return kcfg::fieldError(
        cluster.source, path + ".insecure-skip-tls-verify",
        "specifying a root certificates file with the insecure flag is not allowed");
  }
  KF_TRY(ca, pemFromDataOrFile(cluster.certificate_authority_data, cluster.certificate_authority,
                               cluster.source, path, "certificate-authority"));
  out.server = std::move(server);
  out.tls.ca_pem = std::move(ca);
  out.tls.insecure_skip_verify = cluster.insecure_skip_tls_verify;
  out.tls.server_name = cluster.tls_server_name;
  out.proxy_url = cluster.proxy_url;
  return boost::outcome_v2::success();
}

Status applyClientCertificate(const KubeconfigUser& user, const std::string& path,
                              RestConfig& out) {
  KF_TRY(cert, pemFromDataOrFile(user.client_certificate_data, user.client_certificate, user.source,
                                 path, "client-certificate"));
  KF_TRY(key,
         pemFromDataOrFile(user.client_key_data, user.client_key, user.source, path, "client-key"));
  if (!cert.empty() && key.empty()) {
    return kcfg::fieldError(user.source, path, "client-certificate is set but client-key is not");
  }
  if (cert.empty() && !key.empty()) {
    return kcfg::fieldError(user.source, path, "client-key is set but client-certificate is not");
  }
  out.tls.client_cert_pem = std::move(cert);
  out.tls.client_key_pem = std::move(key);
  return boost::outcome_v2::success();
}

// client-go's rule: an inline token is used as is and the file only re-read later; without one
// the file is read now. Token text never goes into a message.
Status applyToken(const KubeconfigUser& user, const std::string& path, RestConfig& out) {
  out.bearer_token = user.token;
  out.bearer_token_file = user.token_file;
  if (!user.token.empty() || user.token_file.empty()) return boost::outcome_v2::success();
  const std::string field = path + ".tokenFile";
  KF_TRY(contents, kcfg::readReferencedFile(user.source, field, user.token_file));
  out.bearer_token = trimmed(contents);
  if (out.bearer_token.empty()) {
    return kcfg::fieldError(user.source, field, "\"" + user.token_file + "\" is empty");
  }
  return boost::outcome_v2::success();
}

// `out` already holds the cluster's settings.
Status applyUser(const std::string& name, const KubeconfigUser& user,
                 const KubeconfigCluster& cluster, RestConfig& out) {
  const std::string path = kcfg::entryPath("users", name) + ".user";
  KF_TRYV(applyClientCertificate(user, path, out));
  KF_TRYV(applyToken(user, path, out));
  return kcfg::applyUserAuth(name, user, path, cluster, out);
}

std::string bracketedHost(const std::string& host) {
  const bool ipv6 = host.find(':') != std::string::npos && host.front() != '[';
  return ipv6 ? "[" + host + "]" : host;
}

ApiError inClusterError(const std::string& problem) {
  return makeError(Reason::kBadConfig, "in-cluster config: " + problem);
}

Result<std::string> readServiceAccountFile(const fs::path& dir, const char* name) {
  const std::string path = (dir / name).string();
  auto contents = kcfg::readWholeFile(path);
  if (!contents) {
    return inClusterError("cannot read \"" + path + "\": " + contents.error().message);
  }
  return std::move(contents).value();
}

}  // namespace

std::vector<std::string> Kubeconfig::contextNames() const {
  std::vector<std::string> names;
  names.reserve(contexts.size());
  for (const auto& [name, context] : contexts) names.push_back(name);
  return names;
}

std::string Kubeconfig::origin() const { return joined(sources, ":"); }

Result<Kubeconfig> parseKubeconfig(const std::string& yaml_text, const std::string& source_name) {
  const kcfg::ParseContext file{source_name, fs::path(source_name).parent_path()};
  try {
    return kubeconfigFromYaml(YAML::Load(yaml_text), file);
  } catch (const YAML::ParserException& e) {
    return kcfg::fileError(source_name, "invalid YAML at line " + std::to_string(e.mark.line + 1) +
                                            ", column " + std::to_string(e.mark.column + 1) + ": " +
                                            e.msg);
  } catch (const YAML::Exception& e) {
    return kcfg::fileError(source_name, std::string("invalid YAML: ") + e.what());
  } catch (const std::exception& e) {
    return kcfg::fileError(source_name, std::string("cannot parse: ") + e.what());
  }
}

Result<Kubeconfig> loadKubeconfigFile(const std::string& path) {
  auto text = kcfg::readWholeFile(path);
  if (!text) return kcfg::fileError(path, "cannot read: " + text.error().message);
  return parseKubeconfig(text.value(), path);
}

Kubeconfig mergeKubeconfigs(const std::vector<Kubeconfig>& in_order) {
  Kubeconfig merged;
  for (const Kubeconfig& config : in_order) {
    // try_emplace leaves an existing name alone: the first file to define it wins.
    for (const auto& [name, cluster] : config.clusters) merged.clusters.try_emplace(name, cluster);
    for (const auto& [name, user] : config.users) merged.users.try_emplace(name, user);
    for (const auto& [name, context] : config.contexts) merged.contexts.try_emplace(name, context);
    if (merged.current_context.empty()) merged.current_context = config.current_context;
    merged.sources.insert(merged.sources.end(), config.sources.begin(), config.sources.end());
  }
  return merged;
}

Result<Kubeconfig> loadKubeconfig(const KubeconfigOptions& options) {
  if (!options.kubeconfig_path.empty()) return loadKubeconfigFile(options.kubeconfig_path);
  const std::vector<std::string> listed = splitKubeconfigList(options.kubeconfig_env);
  if (!listed.empty()) return loadKubeconfigList(options.kubeconfig_env, listed);
  return loadDefaultKubeconfig(options.home);
}

Result<RestConfig> restConfigFor(const Kubeconfig& config, const std::string& context) {
  const std::string name = context.empty() ? config.current_context : context;
  KF_TRY(selected, selectContext(config, name));
  const std::string path = kcfg::entryPath("contexts", name) + ".context";
  if (selected->cluster.empty())
    return kcfg::fieldError(selected->source, path + ".cluster", "missing");
  const auto cluster = config.clusters.find(selected->cluster);
  if (cluster == config.clusters.end()) {
    return kcfg::fieldError(selected->source, path + ".cluster",
                            "cluster \"" + selected->cluster + "\" not found");
  }
  RestConfig out;
  KF_TRYV(applyCluster(cluster->first, cluster->second, out));
  if (!selected->user.empty()) {
    const auto user = config.users.find(selected->user);
    if (user == config.users.end()) {
      return kcfg::fieldError(selected->source, path + ".user",
                              "user \"" + selected->user + "\" not found");
    }
    KF_TRYV(applyUser(user->first, user->second, cluster->second, out));
  }
  if (!selected->namespace_name.empty()) out.default_namespace = selected->namespace_name;
  return out;
}

Result<RestConfig> loadRestConfig(const KubeconfigOptions& options) {
  KF_TRY(config, loadKubeconfig(options));
  return restConfigFor(config, options.context);
}

Result<RestConfig> inClusterRestConfig(const InClusterEnv& env) {
  if (env.host.empty() || env.port.empty()) {
    return makeError(Reason::kBadConfig,
                     "not running in a cluster: KUBERNETES_SERVICE_HOST and "
                     "KUBERNETES_SERVICE_PORT must be set");
  }
  RestConfig out;
  out.server = "https://" + bracketedHost(env.host) + ":" + env.port;
  if (auto parsed = parseServerUrl(out.server); !parsed) {
    return inClusterError("KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT: " +
                          parsed.error().message);
  }
  const fs::path dir(env.service_account_dir);
  out.bearer_token_file = (dir / "token").string();
  KF_TRY(token, readServiceAccountFile(dir, "token"));
  out.bearer_token = trimmed(token);
  if (out.bearer_token.empty()) {
    return inClusterError("\"" + out.bearer_token_file + "\" is empty");
  }
  KF_TRY(ca, readServiceAccountFile(dir, "ca.crt"));
  if (!kcfg::looksLikePem(ca)) {
    return inClusterError("\"" + (dir / "ca.crt").string() + "\" does not contain PEM data");
  }
  out.tls.ca_pem = std::move(ca);
  // The namespace file is a convenience; client-go falls back to "default" without it.
  if (auto ns = kcfg::readWholeFile((dir / "namespace").string());
      ns && !trimmed(ns.value()).empty()) {
    out.default_namespace = trimmed(ns.value());
  }
  return out;
}

Result<RestConfig> resolveRestConfig(const KubeconfigOptions& options, const InClusterEnv& env) {
  const bool kubeconfig_requested = !options.kubeconfig_path.empty() ||
                                    !splitKubeconfigList(options.kubeconfig_env).empty() ||
                                    !options.context.empty();
  if (!kubeconfig_requested && !env.host.empty() && !env.port.empty()) {
    return inClusterRestConfig(env);
  }
  return loadRestConfig(options);
}

}  // namespace kf

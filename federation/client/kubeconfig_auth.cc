#include "federation/client/kubeconfig_auth.h"

#include "federation/client/base64.h"
#include "federation/client/exec_credential.h"

namespace kf::kubeconfig_fields {
namespace {

constexpr const char* kExecExtensionName = "client.authentication.k8s.io/exec";

// What each removed or unknown auth-provider became: client-go's own words where it has them.
std::string authProviderReplacement(const std::string& name) {
  if (name == "gcp") {
    return "The gcp auth plugin has been removed.\n"
           "Please use the \"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin "
           "instead.\n"
           "See https://cloud.google.com/blog/products/containers-kubernetes/"
           "kubectl-auth-changes-in-gke for further details";
  }
  if (name == "azure") {
    return "The azure auth plugin has been removed.\n"
           "Please use the https://github.com/Azure/kubelogin kubectl/client-go credential "
           "plugin instead.\n"
           "See https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
           "#client-go-credential-plugins for further details";
  }
  if (name == "openstack") {
    return "The openstack auth plugin has been removed.\n"
           "Please use the \"client-keystone-auth\" kubectl/client-go credential plugin "
           "instead.\n"
           "See https://github.com/kubernetes/cloud-provider-openstack/blob/master/docs/"
           "using-client-keystone-auth.md for further details";
  }
  return "no Auth Provider found for name \"" + name +
         "\": kubefed-cpp has only the oidc auth provider; use a kubectl/client-go credential "
         "plugin (exec) instead";
}

// The certificate authority that verifies the issuer: inline data wins over the file, as in
// client-go. The file is read as client-go reads it, relative to the working directory.
Result<std::string> issuerCa(const std::map<std::string, std::string>& config,
                             const std::string& source, const std::string& path) {
  if (const auto data = config.find("idp-certificate-authority-data");
      data != config.end() && !data->second.empty()) {
    const std::string field = path + ".idp-certificate-authority-data";
    std::optional<std::string> pem = base64Decode(data->second);
    if (!pem) return fieldError(source, field, "invalid base64");
    if (!looksLikePem(*pem)) return fieldError(source, field, "does not contain PEM data");
    return std::move(*pem);
  }
  const auto file = config.find("idp-certificate-authority");
  if (file == config.end() || file->second.empty()) return std::string();
  const std::string field = path + ".idp-certificate-authority";
  KF_TRY(pem, readReferencedFile(source, field, file->second));
  if (!looksLikePem(pem)) {
    return fieldError(source, field, "\"" + file->second + "\" does not contain PEM data");
  }
  return pem;
}

// client-go's oidc auth provider, from the entry's config. The id-token is read when it is
// first needed (as client-go does), so a file with a garbled one can still be listed.
Result<OidcConfig> oidcConfig(const std::string& user_name, const KubeconfigUser& user,
                              const std::string& provider_path) {
  const std::map<std::string, std::string>& config = user.auth_provider->config;
  const std::string path = provider_path + ".config";
  auto value = [&config](const char* key) {
    const auto it = config.find(key);
    return it == config.end() ? std::string() : it->second;
  };
  OidcConfig oidc;
  oidc.issuer_url = value("idp-issuer-url");
  oidc.client_id = value("client-id");
  const std::string to_use =
      " must be specified for \"" + user_name + "\" to use the oidc auth provider";
  if (oidc.issuer_url.empty()) {
    return fieldError(user.source, path + ".idp-issuer-url", "idp-issuer-url" + to_use);
  }
  if (!oidc.issuer_url.starts_with("https://")) {
    return fieldError(
        user.source, path + ".idp-issuer-url",
        "\"" + oidc.issuer_url +
            "\" is not an https:// URL (API servers accept only https issuers, and the "
            "refresh-token must not travel in the clear)");
  }
  if (oidc.client_id.empty()) {
    return fieldError(user.source, path + ".client-id", "client-id" + to_use);
  }
  KF_TRY(ca, issuerCa(config, user.source, path));
  oidc.client_secret = value("client-secret");
  oidc.id_token = value("id-token");
  oidc.refresh_token = value("refresh-token");
  oidc.issuer_ca_pem = std::move(ca);
  oidc.kubeconfig_file = user.source;
  oidc.user_name = user_name;
  oidc.origin = "kubeconfig \"" + user.source + "\": " + provider_path;
  return oidc;
}

Result<std::vector<std::pair<std::string, std::string>>> parseExecEnv(const YAML::Node& exec,
                                                                      const ParseContext& file,
                                                                      const std::string& path) {
  std::vector<std::pair<std::string, std::string>> env;
  const YAML::Node list = exec["env"];
  if (isAbsent(list)) return env;
  const std::string field = fieldName(path, "env");
  if (!list.IsSequence()) return fieldError(file.source, field, "expected a list");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = field + "[" + std::to_string(i) + "]";
    if (!list[i].IsMap()) return fieldError(file.source, item_path, "expected a mapping");
    KF_TRY(name, stringField(list[i], "name", file, item_path));
    KF_TRY(value, stringField(list[i], "value", file, item_path));
    env.emplace_back(std::move(name), std::move(value));
  }
  return env;
}

// A command with a '/' is a path, relative to the kubeconfig's directory as in client-go; a bare
// name is looked up in PATH when the plugin runs.
std::string resolvedCommand(const std::string& command, const ParseContext& file) {
  if (command.find('/') == std::string::npos || command.front() == '/' || file.dir.empty()) {
    return command;
  }
  return (file.dir / command).lexically_normal().string();
}

Result<ExecConfig> parseExec(const YAML::Node& exec, const ParseContext& file,
                             const std::string& path) {
  if (!exec.IsMap()) return fieldError(file.source, path, "expected a mapping");
  ExecConfig config;
  KF_TRY(command, stringField(exec, "command", file, path));
  KF_TRY(args, stringListField(exec, "args", file, path));
  KF_TRY(env, parseExecEnv(exec, file, path));
  KF_TRY(api_version, stringField(exec, "apiVersion", file, path));
  KF_TRY(install_hint, stringField(exec, "installHint", file, path));
  KF_TRY(provide_cluster_info, boolField(exec, "provideClusterInfo", file, path));
  KF_TRY(interactive_mode, stringField(exec, "interactiveMode", file, path));
  config.command = resolvedCommand(command, file);
  config.args = std::move(args);
  config.env = std::move(env);
  config.api_version = std::move(api_version);
  config.install_hint = std::move(install_hint);
  // Read by applyUserAuth: any non-null cluster means "provide it".
  if (provide_cluster_info) config.cluster = Json::object();
  // As client-go reads kubeconfigs: v1beta1 plugins predate the field and default to IfAvailable;
  // v1 requires it.
  if (interactive_mode.empty() && config.api_version == kExecApiV1Beta1) {
    interactive_mode = "IfAvailable";
  }
  config.interactive_mode = std::move(interactive_mode);
  return config;
}

Status checkExec(const std::string& user_name, const ExecConfig& exec, const std::string& source,
                 const std::string& path) {
  const std::string quoted = "\"" + user_name + "\"";
  const std::string to_use =
      " must be specified for " + quoted + " to use exec authentication plugin";
  if (exec.command.empty()) return fieldError(source, path + ".command", "command" + to_use);
  if (exec.api_version.empty())
    return fieldError(source, path + ".apiVersion", "apiVersion" + to_use);
  if (exec.api_version == "client.authentication.k8s.io/v1alpha1") {
    return fieldError(source, path + ".apiVersion",
                      "client.authentication.k8s.io/v1alpha1 is no longer supported (Kubernetes "
                      "removed it in 1.24): use " +
                          std::string(kExecApiV1Beta1) + " or " + kExecApiV1);
  }
  if (exec.api_version != kExecApiV1 && exec.api_version != kExecApiV1Beta1) {
    return fieldError(source, path + ".apiVersion",
                      "unsupported version \"" + exec.api_version + "\": expected " + kExecApiV1 +
                          " or " + kExecApiV1Beta1);
  }
  for (std::size_t i = 0; i < exec.env.size(); ++i) {
    if (exec.env[i].first.empty()) {
      return fieldError(source, path + ".env[" + std::to_string(i) + "].name",
                        "env variable name" + to_use);
    }
  }
  if (exec.interactive_mode.empty()) {
    return fieldError(source, path + ".interactiveMode", "interactiveMode" + to_use);
  }
  if (exec.interactive_mode != "Never" && exec.interactive_mode != "IfAvailable" &&
      exec.interactive_mode != "Always") {
    return fieldError(source, path + ".interactiveMode",
                      "invalid interactiveMode for " + quoted + ": \"" + exec.interactive_mode +
                          "\" (expected Never, IfAvailable or Always)");
  }
  return boost::outcome_v2::success();
}

// client-go's rules on how the methods combine.
Status checkCombination(const std::string& user_name, const KubeconfigUser& user,
                        const std::string& path) {
  const std::string quoted = "\"" + user_name + "\"";
  if (user.exec && user.auth_provider) {
    return fieldError(
        user.source, path + ".auth-provider",
        "authProvider cannot be provided in combination with an exec plugin for " + quoted);
  }
  if (user.auth_provider && user.auth_provider->name != "oidc") {
    return fieldError(user.source, path + ".auth-provider",
                      authProviderReplacement(user.auth_provider->name));
  }
  if (!user.token.empty() && (!user.username.empty() || !user.password.empty())) {
    return fieldError(user.source, path,
                      "more than one authentication method found for " + quoted +
                          "; found [token basicAuth], only one is allowed");
  }
  const Impersonation& as = user.impersonate;
  if (as.user.empty() && (!as.uid.empty() || !as.groups.empty() || !as.extra.empty())) {
    return fieldError(
        user.source, path + ".as",
        "requesting uid, groups or user-extra for " + quoted + " without impersonating a user");
  }
  return boost::outcome_v2::success();
}

// ExecCredential spec.cluster: what the plugin learns about the cluster with provideClusterInfo.
Json execClusterInfo(const KubeconfigCluster& cluster, const RestConfig& resolved) {
  Json info = {{"server", cluster.server}};
  if (!cluster.tls_server_name.empty()) info["tls-server-name"] = cluster.tls_server_name;
  if (cluster.insecure_skip_tls_verify) info["insecure-skip-tls-verify"] = true;
  if (!resolved.tls.ca_pem.empty()) {
    info["certificate-authority-data"] = base64Encode(resolved.tls.ca_pem);
  }
  if (!cluster.proxy_url.empty()) info["proxy-url"] = cluster.proxy_url;
  if (cluster.disable_compression) info["disable-compression"] = true;
  if (!cluster.exec_extension.is_null()) info["config"] = cluster.exec_extension;
  return info;
}

}  // namespace

Status parseUserAuth(const YAML::Node& body, const ParseContext& file, const std::string& path,
                     KubeconfigUser& user) {
  KF_TRY(username, stringField(body, "username", file, path));
  KF_TRY(password, stringField(body, "password", file, path));
  KF_TRY(as_user, stringField(body, "as", file, path));
  KF_TRY(as_uid, stringField(body, "as-uid", file, path));
  KF_TRY(as_groups, stringListField(body, "as-groups", file, path));
  KF_TRY(as_extra, stringListMapField(body, "as-user-extra", file, path));
  user.username = std::move(username);
  user.password = std::move(password);
  user.impersonate = {std::move(as_user), std::move(as_uid), std::move(as_groups),
                      std::move(as_extra)};
  if (const YAML::Node exec = body["exec"]; !isAbsent(exec)) {
    KF_TRY(parsed, parseExec(exec, file, fieldName(path, "exec")));
    user.exec = std::move(parsed);
  }
  if (const YAML::Node provider = body["auth-provider"]; !isAbsent(provider)) {
    const std::string provider_path = fieldName(path, "auth-provider");
    if (!provider.IsMap()) return fieldError(file.source, provider_path, "expected a mapping");
    KF_TRY(name, stringField(provider, "name", file, provider_path));
    KF_TRY(config, stringMapField(provider, "config", file, provider_path));
    user.auth_provider = KubeconfigAuthProvider{std::move(name), std::move(config)};
  }
  return boost::outcome_v2::success();
}

Result<Json> parseExecExtension(const YAML::Node& cluster_body, const ParseContext& file,
                                const std::string& path) {
  const YAML::Node list = cluster_body["extensions"];
  if (isAbsent(list)) return Json();
  const std::string field = fieldName(path, "extensions");
  if (!list.IsSequence()) return fieldError(file.source, field, "expected a list");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = field + "[" + std::to_string(i) + "]";
    if (!list[i].IsMap()) return fieldError(file.source, item_path, "expected a mapping");
    KF_TRY(name, stringField(list[i], "name", file, item_path));
    if (name == kExecExtensionName) return yamlToJson(list[i]["extension"]);
  }
  return Json();
}

Status applyUserAuth(const std::string& user_name, const KubeconfigUser& user,
                     const std::string& path, const KubeconfigCluster& cluster, RestConfig& out) {
  KF_TRYV(checkCombination(user_name, user, path));
  out.username = user.username;
  out.password = user.password;
  out.impersonate = user.impersonate;
  if (user.auth_provider) {
    KF_TRY(oidc, oidcConfig(user_name, user, path + ".auth-provider"));
    out.oidc = std::move(oidc);
  }
  if (!user.exec) return boost::outcome_v2::success();
  const std::string exec_path = path + ".exec";
  KF_TRYV(checkExec(user_name, *user.exec, user.source, exec_path));
  ExecConfig exec = *user.exec;
  exec.origin = "kubeconfig \"" + user.source + "\": " + exec_path;
  if (!exec.cluster.is_null()) exec.cluster = execClusterInfo(cluster, out);
  out.exec = std::move(exec);
  return boost::outcome_v2::success();
}

}  // namespace kf::kubeconfig_fields

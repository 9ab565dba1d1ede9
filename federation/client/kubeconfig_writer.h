#pragma once
// Writing refreshed auth-provider tokens back into the kubeconfig file that defines the user, as
// client-go does, so that the next process (or kubectl) starts from them -- which matters when
// the issuer rotates refresh-tokens: the old one no longer works.
//
// Safely: under kubectl's own lock (<file>.lock, created exclusively; a lock that exists is an
// error, as in kubectl), into a new file in the same directory that then replaces the old one in
// one rename (a reader never sees half a file, a crash leaves the old one), with the old file's
// permissions; through a symbolic link, the file it points to is replaced. The rest of the file
// keeps its content, order and quoting; comments are lost, as when kubectl writes the file.

#include <map>
#include <string>

#include "apis/meta/api_error.h"

namespace kf {

// Sets `values` (e.g. id-token, refresh-token) in users[name=`user_name`].user.auth-provider.config
// of `kubeconfig_file`. Errors say what failed and never hold a value.
Status writeAuthProviderConfig(const std::string& kubeconfig_file, const std::string& user_name,
                               const std::map<std::string, std::string>& values);

}  // namespace kf

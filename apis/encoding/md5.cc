#include "apis/encoding/md5.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace kf {

std::string md5Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_length = 0;
  // EVP_Digest rather than MD5(): the low-level digest functions are deprecated in OpenSSL 3.
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &digest_length, EVP_md5(), nullptr) != 1) {
    // Only a FIPS-restricted OpenSSL refuses MD5; without it no version can be recorded at all.
    std::fputs("kubefed: OpenSSL refused to compute MD5 (FIPS mode?)\n", stderr);
    std::abort();
  }
  static constexpr char kHexDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * digest_length);
  for (unsigned int i = 0; i < digest_length; ++i) {
    hex += kHexDigits[digest[i] >> 4];
    hex += kHexDigits[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace kf

#pragma once
// A unified diff of two texts, as `diff -u` prints it: "--- FROM", "+++ TO", then hunks
// "@@ -a,b +c,d @@" of changed lines with `context` unchanged lines around them.

#include <string>

namespace kf::kubefedctl {

// "" when the texts are equal. Lines are split at '\n'; a missing final newline is not marked.
std::string unifiedDiff(const std::string& from_text, const std::string& to_text,
                        const std::string& from_label, const std::string& to_label,
                        int context = 3);

}  // namespace kf::kubefedctl

#pragma once
// How KubeFed prints a JSON number in YAML. Its writer turns an object into JSON (Go's
// encoding/json), lets go-yaml v2 read that JSON back and prints what it read: integers that fit
// in 64 bits stay as written, every other number becomes a float64 printed the way Go's
// strconv.FormatFloat(f, 'g', -1, 64) prints it. So 1.0 prints as 1, 1e3 as 1000, 0.00001 as
// 1e-05 and 123456789.5 as 1.234567895e+08.

#include <nlohmann/json.hpp>
#include <string>

namespace kf::goyaml {

// `number` must be a JSON number (integer, unsigned or float; finite).
std::string formatNumber(const nlohmann::ordered_json& number);

// strconv.FormatFloat(value, 'g', -1, 32) ("1.5", "1.234567e+06", "+Inf"), with which Kubernetes'
// YAML reading turns a float mapping key into a JSON key.
std::string formatFloat32(float value);

}  // namespace kf::goyaml

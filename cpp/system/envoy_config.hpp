// Envoy (API v3), in YAML or JSON: a cluster (lb_policy or
// load_balancing_policy, load_assignment's weights, slow_start_config under
// round_robin_lb_config or least_request_lb_config, outlier_detection,
// common_lb_config.healthy_panic_threshold, circuit_breakers), and, when the
// file has them, the route that sends to it (timeout, retry_policy). The
// file may be a whole bootstrap, one cluster, a list of clusters, or a
// discovery response ({resources: [...]} with "@type"s).
// docs/YOUR-SYSTEM.md lists what maps to what.
#pragma once
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// Reads the cluster named `pool`, or (empty) the first a route sends to, or
// the first cluster. False with `error` when the file does not parse (YAML
// or JSON, system/yaml_tree.hpp) or has no cluster.
bool read_envoy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system

// AWS Application Load Balancer: a target group's attributes and targets,
// as the AWS CLI's shorthand (Key=slow_start.duration_seconds,Value=60;
// --targets Id=i-1 Id=i-2), as JSON or YAML lists of {Key, Value} (the CLI's
// --cli-input-json, CloudFormation's TargetGroupAttributes and Targets), or
// as Terraform's aws_lb_target_group (slow_start = 60,
// load_balancing_algorithm_type = "round_robin"). What `--emit alb` writes
// reads back here. docs/YOUR-SYSTEM.md lists what maps to what.
#pragma once
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// The ALB's limits on slow start (the target group attribute): off (0) or
// 30 to 900 seconds.
inline constexpr double kAlbMinSlowStart = 30;
inline constexpr double kAlbMaxSlowStart = 900;

bool read_alb(std::string_view text, ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system

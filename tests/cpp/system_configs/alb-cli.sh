#!/bin/sh
# The checkout target group's slow start and algorithm.
aws elbv2 modify-target-group-attributes --target-group-arn "$TARGET_GROUP_ARN" \
  --attributes Key=slow_start.duration_seconds,Value=120 Key=load_balancing.algorithm.type,Value=round_robin \
               Key=deregistration_delay.timeout_seconds,Value=30
aws elbv2 modify-load-balancer-attributes --load-balancer-arn "$LOAD_BALANCER_ARN" \
  --attributes Key=idle_timeout.timeout_seconds,Value=20
aws elbv2 register-targets --target-group-arn "$TARGET_GROUP_ARN" \
  --targets Id=i-0a1b2c3d4e5f60001,Port=8080 Id=i-0a1b2c3d4e5f60002,Port=8080 Id=i-0a1b2c3d4e5f60003,Port=8080

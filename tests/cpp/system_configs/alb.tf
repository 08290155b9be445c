resource "aws_lb_target_group" "api" {
  name     = "api"
  port     = 8080
  protocol = "HTTP"
  vpc_id   = aws_vpc.main.id

  slow_start                    = 90
  load_balancing_algorithm_type = "least_outstanding_requests"

  health_check {
    path     = "/health"
    interval = 10
  }
}

resource "aws_lb_target_group_attachment" "api_a" {
  target_group_arn = aws_lb_target_group.api.arn
  target_id        = "i-0123456789abcdef0"
  port             = 8080
}

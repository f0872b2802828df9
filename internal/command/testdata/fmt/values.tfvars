region = "eu-west-1"
instance_count=3
enabled   = true
tags = {
  Owner = "platform"
  CostCenter="1234"
}
subnets = ["a","b",
  "c"]

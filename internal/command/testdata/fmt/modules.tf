module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  version = "5.1.0"
  name = "main"
  cidr = "10.0.0.0/16"
  azs = ["eu-west-1a","eu-west-1b"]
  providers = {
    aws = aws.east
  }
}

module "service" {
  for_each = toset(var.services)
  source = "./service"
  name = each.key
}

provider "aws" {
  region = var.region
  profile= "default"
}

resource "aws_vpc" "main" {
cidr_block = "10.0.0.0/16"
  tags = {
    Name = "main"
    Environment   = var.env
  }
}

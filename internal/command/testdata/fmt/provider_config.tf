provider "aws" {
  region = "us-east-1"
  default_tags {
    tags = {
      ManagedBy = "terraform"
    }
  }
  assume_role {
  role_arn = "${var.role_arn}"
  }
}

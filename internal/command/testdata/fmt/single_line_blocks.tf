resource "null_resource" "a" {}
resource "null_resource" "b" { triggers = { a = 1 } }
locals { x = 1 }
terraform { required_version = ">= 1.0" }

variable "cidr" {
  type = string
}

variable "zones" {
  type = list(string)
}

resource "terraform_data" "vpc" {
  input = var.cidr
}

resource "terraform_data" "subnet" {
  for_each = toset(var.zones)
  input = {
    vpc  = terraform_data.vpc.id
    zone = each.key
    cidr = cidrsubnet(var.cidr, 8, index(var.zones, each.key))
  }
}

output "vpc_id" {
  value = terraform_data.vpc.id
}

output "subnet_ids" {
  value = [for z in var.zones : terraform_data.subnet[z].id]
}

# A small platform built from modules: a network module, a service module
# called once per service (for_each), each calling an instance module per
# replica (count). Run `rig init` first: it records the local modules in
# .terraform/modules/modules.json, as terraform and tofu do.

variable "services" {
  description = "Replicas per service."
  type        = map(number)
  default = {
    api = 2
    web = 1
  }
}

module "network" {
  source = "./modules/network"

  cidr  = "10.0.0.0/16"
  zones = ["a", "b"]
}

module "service" {
  source   = "./modules/service"
  for_each = var.services

  name     = each.key
  replicas = each.value
  subnets  = module.network.subnet_ids
}

resource "terraform_data" "load_balancer" {
  input = {
    backends = flatten([for s in module.service : s.instance_ids])
  }
}

output "network" {
  value = module.network
}

output "backends" {
  value = terraform_data.load_balancer.output.backends
}

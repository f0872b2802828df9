# A small service layout built from terraform_data resources: a network,
# one subnet per zone, application servers spread over the subnets, and a
# load balancer that registers every server. Nothing leaves this machine:
# terraform_data only stores values, so the whole lifecycle (create, update,
# replace, destroy) can be tried without any cloud account.

terraform {
  required_version = ">= 1.6"
}

variable "environment" {
  description = "Deployment environment; part of every name."
  type        = string
  default     = "staging"

  validation {
    condition     = contains(["staging", "production"], var.environment)
    error_message = "The environment must be \"staging\" or \"production\"."
  }
}

variable "zones" {
  description = "Availability zones, each with its own subnet."
  type        = map(string)
  default = {
    a = "10.0.1.0/24"
    b = "10.0.2.0/24"
  }
}

variable "server_count" {
  description = "How many application servers to run."
  type        = number
  default     = 3
}

variable "image_version" {
  description = "Server image; changing it replaces every server."
  type        = string
  default     = "1.0.0"
}

locals {
  name_prefix = "shop-${var.environment}"
  zone_names  = sort(keys(var.zones))
}

resource "terraform_data" "network" {
  input = {
    name = "${local.name_prefix}-net"
    cidr = "10.0.0.0/16"
  }
}

resource "terraform_data" "subnet" {
  for_each = var.zones

  input = {
    name    = "${local.name_prefix}-${each.key}"
    cidr    = each.value
    network = terraform_data.network.output.name
  }
}

resource "terraform_data" "server" {
  count = var.server_count

  input = {
    name   = format("%s-app-%02d", local.name_prefix, count.index + 1)
    subnet = terraform_data.subnet[local.zone_names[count.index % length(local.zone_names)]].output.name
  }

  # A new image means new servers: replace rather than update in place.
  triggers_replace = var.image_version

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "load_balancer" {
  input = {
    name    = "${local.name_prefix}-lb"
    targets = terraform_data.server[*].output.name
  }
}

output "load_balancer" {
  description = "The load balancer and the servers it sends traffic to."
  value       = terraform_data.load_balancer.output
}

output "subnets" {
  value = { for zone, s in terraform_data.subnet : zone => s.output.cidr }
}

output "server_ids" {
  value = terraform_data.server[*].id
}

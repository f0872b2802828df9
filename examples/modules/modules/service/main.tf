variable "name" {
  type = string
}

variable "replicas" {
  type    = number
  default = 1
  validation {
    condition     = var.replicas >= 0 && var.replicas <= 10
    error_message = "A service runs between 0 and 10 replicas."
  }
}

variable "subnets" {
  type = list(string)
}

module "instance" {
  source = "./modules/instance"
  count  = var.replicas

  name   = "${var.name}-${count.index}"
  subnet = var.subnets[count.index % length(var.subnets)]
}

output "instance_ids" {
  value = module.instance[*].id
}

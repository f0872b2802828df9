variable "count_of" {
  type    = number
  default = 2
}

module "wrapper" {
  source   = "./modules/inner"
  count    = var.count_of
  position = count.index
}

output "values" {
  value = module.wrapper[*].value
}

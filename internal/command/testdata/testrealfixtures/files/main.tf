terraform {
  required_providers {
    random = {
      source = "registry.terraform.io/hashicorp/random"
    }
    local = {
      source = "registry.terraform.io/hashicorp/local"
    }
  }
}

variable "prefix" {
  type    = string
  default = "note"
}

resource "random_pet" "name" {
  prefix = var.prefix
  length = 2
}

resource "random_integer" "size" {
  min = 1
  max = 9
}

resource "local_file" "note" {
  filename        = "${path.module}/out/${random_pet.name.id}.txt"
  content         = "size ${random_integer.size.result}"
  file_permission = "0600"
}

data "local_file" "read_back" {
  filename = local_file.note.filename
}

output "filename" {
  value = local_file.note.filename
}

output "size" {
  value = random_integer.size.result
}

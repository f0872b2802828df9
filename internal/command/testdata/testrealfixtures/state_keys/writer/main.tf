terraform {
  required_providers {
    local = {
      source = "registry.terraform.io/hashicorp/local"
    }
  }
}

variable "name" {
  type = string
}

resource "local_file" "written" {
  filename = "${path.root}/out/${var.name}.txt"
  content  = var.name
}

output "filename" {
  value = local_file.written.filename
}

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

resource "random_pet" "name" {}

resource "random_id" "key" {
  byte_length = 4
}

resource "local_file" "note" {
  filename = "${path.module}/out/${random_pet.name.id}.txt"
  content  = random_id.key.hex
}

output "id" {
  value = local_file.note.id
}

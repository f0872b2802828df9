variable "seed" {
  type = string
}

resource "terraform_data" "seed" {
  input = var.seed
}

output "prefix" {
  value = "pre-${terraform_data.seed.output}"
}

output "seed_id" {
  value = terraform_data.seed.id
}

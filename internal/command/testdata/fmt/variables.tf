variable "environment" {
  description = "Deployment environment"
  type = string
  default = "dev"
  validation {
    condition = contains(["dev","staging","prod"], var.environment)
    error_message = "Must be dev, staging or prod."
  }
}

variable "instance" {
  type = object({
    size = string
    count = number
    tags = optional(map(string), {})
  })
  sensitive = true
  nullable=false
}

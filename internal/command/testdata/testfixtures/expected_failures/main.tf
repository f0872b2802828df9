variable "port" {
  type    = number
  default = 8080

  validation {
    condition     = var.port > 1024
    error_message = "The port must not need privileges."
  }
}

variable "label" {
  type    = string
  default = "ok"
}

resource "test_resource" "service" {
  value = "${var.label}:${var.port}"

  lifecycle {
    postcondition {
      condition     = !startswith(self.value, "broken")
      error_message = "The service is broken."
    }
  }
}

output "endpoint" {
  value = test_resource.service.value

  precondition {
    condition     = var.label != "hidden"
    error_message = "The endpoint must not be hidden."
  }
}

check "health" {
  assert {
    condition     = var.label != "sick"
    error_message = "The service is sick."
  }
}

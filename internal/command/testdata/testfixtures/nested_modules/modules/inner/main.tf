variable "position" {
  type = number
}

resource "test_resource" "inner" {
  value = "inner-${var.position}"
}

output "value" {
  value = test_resource.inner.value
}

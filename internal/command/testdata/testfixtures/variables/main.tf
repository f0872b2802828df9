variable "region" {
  type = string
}

variable "size" {
  type    = number
  default = 1
}

resource "test_resource" "sized" {
  value = "${var.region}-${var.size}"
}

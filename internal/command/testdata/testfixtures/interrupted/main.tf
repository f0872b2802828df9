variable "interrupts" {
  type    = number
  default = 0
}

resource "test_resource" "base" {
  value = "base"
}

resource "test_resource" "trigger" {
  value           = "trigger"
  interrupt_count = var.interrupts
  depends_on      = [test_resource.base]
}

resource "aws_security_group" "sg" {
  name = "sg"
  dynamic "ingress" {
  for_each = var.rules
  content {
  from_port = ingress.value.from
  to_port = ingress.value.to
  protocol = "${ingress.value.protocol}"
  cidr_blocks = ingress.value.cidrs
  }
  }
}

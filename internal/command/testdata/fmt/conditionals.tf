locals {
  size = var.env=="prod"?"large":"small"
  count = var.enabled ? 1 : 0
  name = var.name != null ? var.name : "${var.prefix}-default"
  nested = var.a ? ( var.b ? 1 : 2 ) : 3
}

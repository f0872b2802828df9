locals {
  joined = join(",",var.list)
  merged = merge(var.a,var.b,{c=1})
  cidr = cidrsubnet( var.cidr , 8 , 1 )
  expanded = concat(var.a, var.b...)
  multiline = jsonencode({
    a = 1
    bb = [1,2,3]
  })
  fmt = format("%s-%03d", var.name, count.index)
}

locals {
  a = 1+2*3
  b = (var.x-1)/2
  c = !var.enabled
  d = var.a&&var.b||var.c
  e = -1
  f = var.n%2==0
  g = var.list[0]
  h = var.map["key"]
  i = var.objects[*].id
  j = var.obj.*.name
}

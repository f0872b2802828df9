resource "aws_subnet" "private" {
  count = length(var.azs)
  vpc_id = aws_vpc.main.id
  cidr_block = cidrsubnet(var.cidr,4,count.index)
  availability_zone = var.azs[count.index]
}

resource "aws_route53_record" "r" {
  for_each = { for r in var.records : r.name => r }
  name = each.value.name
  type = each.value.type
  records = [each.value.value]
}

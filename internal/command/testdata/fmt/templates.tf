locals {
  greeting = "Hello, ${var.name}!"
  directive = "%{ if var.admin }admin%{ else }user%{ endif }"
  loop = "%{ for ip in var.ips }server ${ip}\n%{ endfor }"
  escaped = "$${not_interpolated} and %%{not_a_directive}"
  strip = "${~ var.x ~}"
  two = "${var.a}${var.b}"
}

variable "name" {
  type = "string"
}

variable "zones" {
  type    = "list"
  default = ["a", "b"]
}

variable "tags" {
  type = "map"
  default = {}
}

variable "count" {
  type = "number"
}

resource "x" "y" {
  type = "string"
}

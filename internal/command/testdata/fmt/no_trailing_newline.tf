locals {
  a = 1
}
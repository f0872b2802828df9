locals {
  a = 1
  bb = 2
  # comment breaks the group
  ccc = 3
  dddd = 4

  e = 5
  ffffff = {
    x = 1
    yy = 2
  }
  g = 7
}

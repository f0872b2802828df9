locals {
  upper_names = [for n in var.names: upper(n)]
  by_id = {for u in var.users: u.id => u}
  filtered = [ for x in var.items : x if x.enabled ]
  grouped = {for k,v in var.map : k => v...}
  nested = [for a in var.as: [for b in a.bs: b.id]]
}

output "instance_ip" {
  value = aws_instance.web.public_ip
  description= "The public IP"
}
output "all_ids" {
  value = "${aws_instance.web.*.id}"
  sensitive = true
  depends_on = [ aws_instance.web ]
}

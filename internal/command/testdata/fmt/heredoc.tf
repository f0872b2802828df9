resource "aws_iam_policy" "p" {
  name = "p"
  policy = <<EOF
{
  "Version": "2012-10-17",
    "Statement": []
}
EOF
  description = <<-EOT
      indented heredoc
        keeps its text
    EOT
  tags = {}
}

resource "aws_s3_bucket" "logs" {
bucket = "my-logs"
      acl    = "private"
    versioning {
  enabled = true
          }
   lifecycle_rule {
        id      = "expire"
     enabled = true
  expiration {
 days = 90
   }
      }
}

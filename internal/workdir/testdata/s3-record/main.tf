terraform {
  backend "s3" {
    bucket                      = "state"
    key                         = "team/terraform.tfstate"
    region                      = "us-east-1"
    endpoints                   = { s3 = "http://127.0.0.1:39123" }
    use_path_style              = true
    access_key                  = "AKIDTEST"
    secret_key                  = "secret"
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    use_lockfile                = true
    max_retries                 = 3
    shared_config_files         = ["/nonexistent/a"]
  }
}

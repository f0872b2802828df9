// Package encryption owns state and plan encryption as OpenTofu 1.10 does
// it: the terraform block's "encryption" block and what the TF_ENCRYPTION
// environment variable merges into it (NewWithEnv), the pbkdf2 key provider,
// the aes_gcm and unencrypted methods, and the JSON envelope an encrypted
// state or plan is stored in, so that either tool reads what the other
// wrote. The remote_state_data_sources block gives the targets the states
// terraform_remote_state reads are decrypted with (DecryptRemoteState).
//
// An envelope is a JSON object {"serial", "lineage" (states only), "meta":
// {"key_provider.pbkdf2.NAME": base64 of the key provider's JSON metadata},
// "encrypted_data": base64 of nonce‖AES-GCM ciphertext, "encryption_version":
// "v0"}. The key is PBKDF2 of the passphrase with the salt, iterations, hash
// function and key length the metadata records.
//
// It imports only internal/config and internal/diag.
package encryption

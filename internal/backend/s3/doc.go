// Package s3 owns the s3 backend: each workspace's state as one object of
// an S3 bucket (or an S3-compatible store), laid out as Terraform's and
// OpenTofu's s3 backends lay it out, and the locks they take, so that rig,
// Terraform 1.11 and OpenTofu 1.10 share a bucket and exclude each other.
//
// Layout. The default workspace's state is the object KEY; workspace NAME's
// is WORKSPACE_KEY_PREFIX/NAME/KEY (the prefix defaults to "env:"). The
// workspaces are found by listing the objects under the prefix.
//
// Locking. Either or both of two locks, as configured:
//   - use_lockfile: the object KEY.tflock, created with a conditional PUT
//     (If-None-Match: *) that S3 accepts only while no such object exists.
//     It holds the holder's LockInfo as JSON. Unlock reads it, checks the
//     lock ID and deletes it.
//   - dynamodb_table: an item of the table whose LockID is BUCKET/KEY and
//     whose Info is the LockInfo JSON, put with the condition
//     attribute_not_exists(LockID); Unlock deletes it on the condition that
//     its Info is unchanged.
//
// With both, the object is taken first and released if the item cannot be.
// With neither, the state is not locked (as in Terraform and OpenTofu).
// Such a lock outlives the process that took it: a holder that dies
// leaves it in place until someone who knows its ID unlocks it
// (rig force-unlock ID).
//
// Durability. Write returns once S3 acknowledged the PUT of the whole
// object, sent with its Content-MD5 and (unless skip_s3_checksum) its
// SHA-256 checksum, so S3 rejects a body damaged on the way. With a
// DynamoDB table, Write then records the state's MD5 in the item
// BUCKET/KEY-md5 (attribute Digest), and Read retries for a while when the
// object it gets does not match that digest, so that a read from a lagging
// replica is detected rather than used.
//
// Journal. S3 objects cannot be appended to, so a Store's journal is a
// head object KEY.tfjournal (the snapshot's lineage and serial, and a
// generation) and one object per record, KEY.tfjournal.d/GENERATION/N,
// each acknowledged by S3 before Append returns; Load lists the records
// of the head's generation in order and stops at a gap. Begin replaces the
// head with a new generation in one PUT (an earlier journal is then
// unreachable and its objects are deleted after), Discard deletes the
// head, and DeleteWorkspace the whole journal. Terraform and OpenTofu
// ignore these objects.
//
// Settings. Schema types the settings of a backend "s3" block, the union of
// Terraform's and OpenTofu's schemas (TerraformSchema, OpenTofuSchema),
// and ConfigFromSettings builds a Config from them and the environment
// (settings.go).
//
// It imports only the standard library, the AWS SDK for Go v2, go-cty,
// internal/backend and internal/parallel.
package s3

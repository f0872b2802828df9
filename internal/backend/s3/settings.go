package s3

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The s3 backend's settings, as Terraform 1.11's and OpenTofu 1.10's
// schemas type them (TerraformSchema, OpenTofuSchema). The two schemas
// differ: OpenTofu keeps eight deprecated assume-role settings at the top
// level, Terraform's endpoints object adds sso and its assume_role adds
// source_identity. rig accepts the union (Schema); a backend record's hash
// and config follow one tool's schema.
var (
	setOfStrings = cty.Set(cty.String)
	mapOfStrings = cty.Map(cty.String)

	// commonSchema: the settings both schemas have, nested ones aside.
	commonSchema = map[string]cty.Type{
		"bucket": cty.String, "key": cty.String, "region": cty.String,
		"access_key": cty.String, "secret_key": cty.String, "token": cty.String, "profile": cty.String,
		"acl": cty.String, "encrypt": cty.Bool, "kms_key_id": cty.String, "sse_customer_key": cty.String,
		"dynamodb_table": cty.String, "use_lockfile": cty.Bool, "workspace_key_prefix": cty.String,
		"endpoint": cty.String, "dynamodb_endpoint": cty.String, "iam_endpoint": cty.String, "sts_endpoint": cty.String,
		"sts_region": cty.String, "force_path_style": cty.Bool, "use_path_style": cty.Bool,
		"shared_credentials_file": cty.String, "shared_credentials_files": setOfStrings, "shared_config_files": setOfStrings,
		"skip_credentials_validation": cty.Bool, "skip_metadata_api_check": cty.Bool, "skip_region_validation": cty.Bool,
		"skip_requesting_account_id": cty.Bool, "skip_s3_checksum": cty.Bool,
		"retry_mode": cty.String, "max_retries": cty.Number, "custom_ca_bundle": cty.String,
		"ec2_metadata_service_endpoint": cty.String, "ec2_metadata_service_endpoint_mode": cty.String,
		"allowed_account_ids": setOfStrings, "forbidden_account_ids": setOfStrings,
		"http_proxy": cty.String, "https_proxy": cty.String, "no_proxy": cty.String, "insecure": cty.Bool,
		"use_dualstack_endpoint": cty.Bool, "use_fips_endpoint": cty.Bool,
		"assume_role_with_web_identity": cty.Object(map[string]cty.Type{
			"role_arn": cty.String, "web_identity_token": cty.String, "web_identity_token_file": cty.String,
			"session_name": cty.String, "policy": cty.String, "policy_arns": setOfStrings, "duration": cty.String,
		}),
	}
	// openTofuOnly: OpenTofu's deprecated top-level assume-role settings.
	openTofuOnly = map[string]cty.Type{
		"role_arn": cty.String, "session_name": cty.String, "external_id": cty.String,
		"assume_role_duration_seconds": cty.Number, "assume_role_policy": cty.String,
		"assume_role_policy_arns": setOfStrings, "assume_role_tags": mapOfStrings,
		"assume_role_transitive_tag_keys": setOfStrings,
	}
	endpointsOpenTofu  = map[string]cty.Type{"s3": cty.String, "iam": cty.String, "sts": cty.String, "dynamodb": cty.String}
	endpointsTerraform = withAttr(endpointsOpenTofu, "sso", cty.String)
	assumeRoleOpenTofu = map[string]cty.Type{
		"role_arn": cty.String, "duration": cty.String, "external_id": cty.String, "policy": cty.String,
		"policy_arns": setOfStrings, "session_name": cty.String, "tags": mapOfStrings, "transitive_tag_keys": setOfStrings,
	}
	assumeRoleTerraform = withAttr(assumeRoleOpenTofu, "source_identity", cty.String)

	// TerraformSchema is Terraform's schema.
	TerraformSchema = withAttrs(commonSchema, map[string]cty.Type{
		"endpoints": cty.Object(endpointsTerraform), "assume_role": cty.Object(assumeRoleTerraform)})
	// OpenTofuSchema is OpenTofu's schema.
	OpenTofuSchema = withAttrs(withAttrs(commonSchema, openTofuOnly), map[string]cty.Type{
		"endpoints": cty.Object(endpointsOpenTofu), "assume_role": cty.Object(assumeRoleOpenTofu)})
	// Schema is the union rig accepts; a nested object has the
	// attributes of both tools.
	Schema = withAttrs(withAttrs(commonSchema, openTofuOnly), map[string]cty.Type{
		"endpoints": cty.Object(endpointsTerraform), "assume_role": cty.Object(assumeRoleTerraform)})
)

func withAttr(m map[string]cty.Type, name string, t cty.Type) map[string]cty.Type {
	return withAttrs(m, map[string]cty.Type{name: t})
}

func withAttrs(m, more map[string]cty.Type) map[string]cty.Type {
	out := maps.Clone(m)
	maps.Copy(out, more)
	return out
}

// OpenTofuOnly are the settings OpenTofu's schema has and Terraform's
// lacks, sorted.
var OpenTofuOnly = slices.Sorted(maps.Keys(openTofuOnly))

// unsupported are settings of the schemas rig does not act on yet; a
// configuration setting one is refused rather than silently run otherwise.
var unsupported = []string{"endpoints.sso"}

// settingValue decodes a setting, given as a string, with its type from
// the union schema; null when it is not set.
func settingValue(settings map[string]string, name string) (cty.Value, error) {
	t := Schema[name]
	s, ok := settings[name]
	switch {
	case !ok:
		return cty.NullVal(t), nil
	case t == cty.String:
		return cty.StringVal(s), nil
	case t == cty.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return cty.NilVal, fmt.Errorf("the %q setting must be a boolean", name)
		}
		return cty.BoolVal(b), nil
	}
	v, err := ctyjson.Unmarshal([]byte(s), t)
	if err != nil {
		return cty.NilVal, fmt.Errorf("the %q setting must be of type %s: %w", name, t.FriendlyName(), err)
	}
	return v, nil
}

// ConfigFromSettings builds a Config from the settings of a backend block
// (by name, as strings: a boolean "true" or "false", a number its decimal
// text, a set, list, map or object go-cty's JSON of it in Schema's type),
// taking defaults from the environment (looked up with getenv) as
// Terraform does, and validates it (Validate). Its problems are in the
// words Terraform and OpenTofu use; any that is not a warning makes the
// Config unusable.
func ConfigFromSettings(settings map[string]string, getenv func(string) string) (Config, []Problem) {
	var ps []Problem
	bad := func(format string, args ...any) {
		ps = append(ps, Problem{Summary: "Invalid s3 backend configuration", Detail: fmt.Sprintf(format, args...)})
	}
	vals := map[string]cty.Value{}
	for name := range Schema {
		v, err := settingValue(settings, name)
		if err != nil {
			bad("%s.", err)
			continue
		}
		vals[name] = v
	}
	if hasErrors(ps) {
		return Config{}, ps
	}
	str := func(v cty.Value) string {
		if v.IsNull() {
			return ""
		}
		return v.AsString()
	}
	flag := func(name string) bool { v := vals[name]; return !v.IsNull() && v.True() }
	list := func(v cty.Value) []string {
		if v.IsNull() {
			return nil
		}
		var out []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, e.AsString())
		}
		return out
	}
	strMap := func(v cty.Value) map[string]string {
		if v.IsNull() {
			return nil
		}
		out := map[string]string{}
		for k, e := range v.AsValueMap() {
			out[k] = e.AsString()
		}
		return out
	}
	attr := func(obj cty.Value, name string) cty.Value {
		if obj.IsNull() {
			return cty.NullVal(obj.Type().AttributeType(name))
		}
		return obj.GetAttr(name)
	}
	orEnv := func(v string, names ...string) string {
		for _, n := range names {
			if v != "" {
				return v
			}
			v = getenv(n)
		}
		return v
	}
	for _, name := range unsupported {
		v := vals[name]
		if obj, field, ok := strings.Cut(name, "."); ok {
			v = attr(vals[obj], field)
		}
		if !v.IsNull() {
			ps = append(ps, Problem{Summary: "Unsupported s3 backend setting", Detail: fmt.Sprintf("rig does not support the s3 backend's %q setting yet.", name)})
		}
	}
	for _, pair := range [][2]string{{"endpoint", "endpoints.s3"}, {"dynamodb_endpoint", "endpoints.dynamodb"}, {"sts_endpoint", "endpoints.sts"},
		{"iam_endpoint", "endpoints.iam"}, {"force_path_style", "use_path_style"}, {"shared_credentials_file", "shared_credentials_files"}} {
		old := vals[pair[0]]
		if old.IsNull() {
			continue
		}
		_, field, nested := strings.Cut(pair[1], ".")
		now := vals[pair[1]]
		if nested {
			now = attr(vals["endpoints"], field)
		}
		if !now.IsNull() {
			bad("Only one of %q and %q can be set.", pair[0], pair[1])
		}
		ps = append(ps, Problem{Warning: true, Summary: "Deprecated Parameter",
			Detail: fmt.Sprintf("The s3 backend's %q setting is deprecated: use %q instead.", pair[0], pair[1])})
	}
	endpoints := vals["endpoints"]
	endpoint := func(field, deprecated string, env ...string) string {
		if v := str(attr(endpoints, field)); v != "" {
			return v
		}
		return orEnv(str(vals[deprecated]), env...)
	}
	prefix := (*string)(nil)
	if v := vals["workspace_key_prefix"]; !v.IsNull() {
		p := v.AsString()
		prefix = &p
	}
	cfg := Config{
		Bucket:             str(vals["bucket"]),
		Key:                str(vals["key"]),
		Region:             str(vals["region"]),
		WorkspaceKeyPrefix: prefix,
		Encrypt:            flag("encrypt"),
		KMSKeyID:           str(vals["kms_key_id"]),
		SSECustomerKey:     orEnv(str(vals["sse_customer_key"]), "AWS_SSE_CUSTOMER_KEY"),
		ACL:                str(vals["acl"]),
		Endpoints: Endpoints{
			S3:       endpoint("s3", "endpoint", "AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT"),
			DynamoDB: endpoint("dynamodb", "dynamodb_endpoint", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_DYNAMODB_ENDPOINT"),
			STS:      endpoint("sts", "sts_endpoint", "AWS_ENDPOINT_URL_STS", "AWS_STS_ENDPOINT"),
			IAM:      endpoint("iam", "iam_endpoint", "AWS_ENDPOINT_URL_IAM", "AWS_IAM_ENDPOINT"),
		},
		UsePathStyle:              flag("use_path_style") || flag("force_path_style"),
		SkipCredentialsValidation: flag("skip_credentials_validation"),
		SkipRegionValidation:      flag("skip_region_validation"),
		SkipRequestingAccountID:   flag("skip_requesting_account_id"),
		SkipMetadataAPICheck:      flag("skip_metadata_api_check"),
		SkipS3Checksum:            flag("skip_s3_checksum"),
		AccessKey:                 str(vals["access_key"]),
		SecretKey:                 str(vals["secret_key"]),
		Token:                     str(vals["token"]),
		Profile:                   str(vals["profile"]),
		SharedCredentialsFiles:    list(vals["shared_credentials_files"]),
		SharedConfigFiles:         list(vals["shared_config_files"]),
		UseLockfile:               flag("use_lockfile"),
		DynamoDBTable:             str(vals["dynamodb_table"]),
		STSRegion:                 str(vals["sts_region"]),
		RetryMode:                 str(vals["retry_mode"]),
		CustomCABundle:            orEnv(str(vals["custom_ca_bundle"]), "AWS_CA_BUNDLE"),
		EC2MetadataEndpoint:       orEnv(str(vals["ec2_metadata_service_endpoint"]), "AWS_EC2_METADATA_SERVICE_ENDPOINT"),
		EC2MetadataEndpointMode:   orEnv(str(vals["ec2_metadata_service_endpoint_mode"]), "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"),
		AllowedAccountIDs:         list(vals["allowed_account_ids"]),
		ForbiddenAccountIDs:       list(vals["forbidden_account_ids"]),
		HTTPProxy:                 str(vals["http_proxy"]),
		HTTPSProxy:                str(vals["https_proxy"]),
		NoProxy:                   str(vals["no_proxy"]),
		Insecure:                  flag("insecure"),
		UseFIPSEndpoint:           flag("use_fips_endpoint"),
		UseDualStackEndpoint:      flag("use_dualstack_endpoint"),
	}
	if v := str(vals["shared_credentials_file"]); v != "" {
		cfg.SharedCredentialsFiles = []string{v}
	}
	if cfg.SharedCredentialsFiles == nil && getenv("AWS_SHARED_CREDENTIALS_FILE") != "" {
		cfg.SharedCredentialsFiles = []string{getenv("AWS_SHARED_CREDENTIALS_FILE")}
	}
	if cfg.SharedConfigFiles == nil && getenv("AWS_SHARED_CONFIG_FILE") != "" {
		cfg.SharedConfigFiles = []string{getenv("AWS_SHARED_CONFIG_FILE")}
	}
	if v := vals["max_retries"]; !v.IsNull() {
		n, acc := v.AsBigFloat().Int64()
		if acc != 0 || n < 0 {
			bad("The \"max_retries\" setting must be a whole number, not %s.", v.AsBigFloat().String())
		}
		cfg.MaxRetries = int(n)
	}
	if cfg.MaxRetries == 0 {
		if n, err := strconv.Atoi(getenv("AWS_MAX_ATTEMPTS")); err == nil && n > 0 {
			cfg.MaxRetries = n
		}
	}
	deprecatedRole := slices.ContainsFunc(slices.Collect(maps.Keys(openTofuOnly)), func(n string) bool { return !vals[n].IsNull() })
	switch ar := vals["assume_role"]; {
	case !ar.IsNull() && deprecatedRole:
		bad("The deprecated top-level assume-role settings (role_arn, session_name, external_id, assume_role_*) conflict with the \"assume_role\" setting: move them into it.")
	case !ar.IsNull():
		r := &AssumeRole{
			RoleARN:           str(ar.GetAttr("role_arn")),
			SessionName:       str(ar.GetAttr("session_name")),
			ExternalID:        str(ar.GetAttr("external_id")),
			Policy:            str(ar.GetAttr("policy")),
			PolicyARNs:        list(ar.GetAttr("policy_arns")),
			Tags:              strMap(ar.GetAttr("tags")),
			TransitiveTagKeys: list(ar.GetAttr("transitive_tag_keys")),
			SourceIdentity:    str(ar.GetAttr("source_identity")),
		}
		if d := str(ar.GetAttr("duration")); d != "" {
			dur, err := time.ParseDuration(d)
			if err != nil {
				bad("The \"assume_role.duration\" setting %q is not a duration (such as \"1h\" or \"900s\").", d)
			}
			r.Duration = dur
		}
		cfg.AssumeRole = r
	case deprecatedRole:
		ps = append(ps, Problem{Warning: true, Summary: "Deprecated Parameters",
			Detail: "The s3 backend's top-level role_arn, session_name, external_id and assume_role_* settings are deprecated (and unknown to Terraform): use the \"assume_role\" object instead."})
		r := &AssumeRole{
			RoleARN:           str(vals["role_arn"]),
			SessionName:       str(vals["session_name"]),
			ExternalID:        str(vals["external_id"]),
			Policy:            str(vals["assume_role_policy"]),
			PolicyARNs:        list(vals["assume_role_policy_arns"]),
			Tags:              strMap(vals["assume_role_tags"]),
			TransitiveTagKeys: list(vals["assume_role_transitive_tag_keys"]),
		}
		if v := vals["assume_role_duration_seconds"]; !v.IsNull() {
			n, _ := v.AsBigFloat().Int64()
			r.Duration = time.Duration(n) * time.Second
		}
		cfg.AssumeRole = r
	}
	if wi := vals["assume_role_with_web_identity"]; !wi.IsNull() {
		w := &WebIdentity{
			RoleARN:     orEnv(str(wi.GetAttr("role_arn")), "AWS_ROLE_ARN"),
			SessionName: orEnv(str(wi.GetAttr("session_name")), "AWS_ROLE_SESSION_NAME"),
			Token:       str(wi.GetAttr("web_identity_token")),
			TokenFile:   str(wi.GetAttr("web_identity_token_file")),
			Policy:      str(wi.GetAttr("policy")),
			PolicyARNs:  list(wi.GetAttr("policy_arns")),
		}
		if w.Token == "" && w.TokenFile == "" {
			// From the environment, the file rather than the token.
			if w.TokenFile = getenv("AWS_WEB_IDENTITY_TOKEN_FILE"); w.TokenFile == "" {
				w.Token = getenv("AWS_WEB_IDENTITY_TOKEN")
			}
		}
		if d := str(wi.GetAttr("duration")); d != "" {
			dur, err := time.ParseDuration(d)
			if err != nil {
				bad("The \"assume_role_with_web_identity.duration\" setting %q is not a duration (such as \"1h\" or \"900s\").", d)
			}
			w.Duration = dur
		}
		cfg.WebIdentity = w
	}
	return cfg, append(ps, cfg.Validate(getenv)...)
}

// hasErrors reports whether any of ps is not a warning.
func hasErrors(ps []Problem) bool {
	for _, p := range ps {
		if !p.Warning {
			return true
		}
	}
	return false
}

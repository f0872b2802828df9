package lang

import (
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	yaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// funcKey identifies one function table: the tables differ only in the file
// functions' base directory and in what plantimestamp, timestamp and uuid
// return.
type funcKey struct {
	baseDir       string
	planTimestamp time.Time
	pureOnly      bool
}

type cacheKey struct {
	baseDir  string
	planNano int64
	hasPlan  bool
	pureOnly bool
}

var funcTables sync.Map // cacheKey → map[string]function.Function

// Functions returns the function library with file functions reading
// relative to baseDir: each function under its name and under
// "core::NAME". plantimestamp() returns an unknown string in this
// table (a Scope with PlanTimestamp set returns that time instead). The map
// is cached and shared: callers must not modify it.
func Functions(baseDir string) map[string]function.Function {
	return functionsFor(funcKey{baseDir: baseDir})
}

func functionsFor(k funcKey) map[string]function.Function {
	ck := cacheKey{baseDir: k.baseDir, pureOnly: k.pureOnly}
	if !k.planTimestamp.IsZero() {
		ck.hasPlan, ck.planNano = true, k.planTimestamp.UnixNano()
	}
	if t, ok := funcTables.Load(ck); ok {
		return t.(map[string]function.Function)
	}
	t, _ := funcTables.LoadOrStore(ck, buildFunctions(k))
	return t.(map[string]function.Function)
}

func buildFunctions(k funcKey) map[string]function.Function {
	fs := map[string]function.Function{
		// Numbers.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,
		"sum":      sumFunc,

		// Strings.
		"chomp":       stdlib.ChompFunc,
		"endswith":    endsWithFunc,
		"format":      stdlib.FormatFunc,
		"formatlist":  stdlib.FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     replaceFunc,
		"split":       stdlib.SplitFunc,
		"startswith":  startsWithFunc,
		"strcontains": strContainsFunc,
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,
		// templatestring is added below.

		// Collections.
		"alltrue":         allTrueFunc,
		"anytrue":         anyTrueFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        coalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        containsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"index":           indexFunc,
		"keys":            stdlib.KeysFunc,
		"length":          lengthFunc,
		"list":            removedFunc("list", "tolist([ ... ])"),
		"lookup":          lookupFunc,
		"map":             removedFunc("map", "tomap({ ... })"),
		"matchkeys":       matchkeysFunc,
		"merge":           stdlib.MergeFunc,
		"one":             oneFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"transpose":       transposeFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encoding.
		"base64decode":     base64DecodeFunc,
		"base64encode":     base64EncodeFunc,
		"base64gunzip":     base64GunzipFunc,
		"base64gzip":       base64GzipFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"textdecodebase64": textDecodeBase64Func,
		"textencodebase64": textEncodeBase64Func,
		"urldecode":        urlDecodeFunc,
		"urlencode":        urlEncodeFunc,
		"yamldecode":       yaml.YAMLDecodeFunc,
		"yamlencode":       yaml.YAMLEncodeFunc,

		// Hashes and identifiers.
		"base64sha256": base64Sha256Func,
		"base64sha512": base64Sha512Func,
		"bcrypt":       bcryptFunc(k.pureOnly),
		"md5":          md5Func,
		"rsadecrypt":   rsaDecryptFunc,
		"sha1":         sha1Func,
		"sha256":       sha256Func,
		"sha512":       sha512Func,
		"uuid":         uuidFunc(k.pureOnly),
		"uuidv5":       uuidV5Func,

		// Date and time.
		"formatdate":    stdlib.FormatDateFunc,
		"plantimestamp": planTimestampFunc(k.planTimestamp),
		"timeadd":       stdlib.TimeAddFunc,
		"timecmp":       timeCmpFunc,
		"timestamp":     timestampFunc(k.pureOnly),

		// Filesystem.
		"abspath":          absPathFunc,
		"basename":         baseNameFunc,
		"dirname":          dirNameFunc,
		"file":             fileFunc(k.baseDir, false),
		"filebase64":       fileFunc(k.baseDir, true),
		"filebase64sha256": fileHashFunc(k.baseDir, sha256Base64),
		"filebase64sha512": fileHashFunc(k.baseDir, sha512Base64),
		"fileexists":       fileExistsFunc(k.baseDir),
		"filemd5":          fileHashFunc(k.baseDir, md5Hex),
		"fileset":          filesetFunc(k.baseDir),
		"filesha1":         fileHashFunc(k.baseDir, sha1Hex),
		"filesha256":       fileHashFunc(k.baseDir, sha256Hex),
		"filesha512":       fileHashFunc(k.baseDir, sha512Hex),
		"pathexpand":       pathExpandFunc,
		// templatefile is added below.

		// Types and conversion.
		"can":             tryfunc.CanFunc,
		"convert":         convertFunc,
		"ephemeralasnull": ephemeralAsNullFunc,
		"issensitive":     isSensitiveFunc,
		"nonsensitive":    nonsensitiveFunc,
		"sensitive":       sensitiveFunc,
		"tobool":          makeToFunc(cty.Bool),
		"tolist":          makeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        makeToFunc(cty.Number),
		"toset":           makeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        makeToFunc(cty.String),
		"try":             tryfunc.TryFunc,
		"type":            typeFunc,

		// Networking.
		"cidrcontains": cidrContainsFunc,
		"cidrhost":     cidrHostFunc,
		"cidrnetmask":  cidrNetmaskFunc,
		"cidrsubnet":   cidrSubnetFunc,
		"cidrsubnets":  cidrSubnetsFunc,
	}
	// Templates may call every function (templatefile's but templatefile
	// itself), under both names.
	all := func() map[string]function.Function { return fs }
	fs["templatefile"] = templateFileFunc(k.baseDir, all)
	fs["templatestring"] = templateStringFunc(all)
	names := make([]string, 0, len(fs))
	for name := range fs {
		names = append(names, name)
	}
	for _, name := range names {
		fs[coreNamespace+name] = fs[name]
	}
	return fs
}

// coreNamespace is the prefix that names a built-in function explicitly
// (core::upper), as OpenTofu allows; every built-in has both names.
const coreNamespace = "core::"

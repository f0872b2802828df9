package lang

import (
	"fmt"
	"math/big"
	"net"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

func parseCIDR(s string) (*net.IPNet, error) {
	_, network, err := net.ParseCIDR(s)
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR expression: %s", err)
	}
	return network, nil
}

// ipAdd returns base + n within an address of base's length, or false when
// the result does not fit.
func ipAdd(base net.IP, n *big.Int) (net.IP, bool) {
	x := new(big.Int).SetBytes(base)
	x.Add(x, n)
	if x.Sign() < 0 || x.BitLen() > len(base)*8 {
		return nil, false
	}
	out := make(net.IP, len(base))
	x.FillBytes(out)
	return out, true
}

func networkIP(n *net.IPNet) net.IP {
	if ip4 := n.IP.To4(); ip4 != nil {
		return ip4
	}
	return n.IP.To16()
}

var cidrHostFunc = function.New(&function.Spec{
	Description: "Calculates a full host IP address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var hostnum int64
		if err := gocty.FromCtyValue(args[1], &hostnum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		ones, bits := network.Mask.Size()
		size := new(big.Int).Lsh(big.NewInt(1), uint(bits-ones))
		n := big.NewInt(hostnum)
		if hostnum < 0 {
			n.Add(n, size)
		}
		if n.Sign() < 0 || n.Cmp(size) >= 0 {
			return cty.UnknownVal(cty.String), fmt.Errorf("prefix of %d bits cannot accommodate a host numbered %d", ones, hostnum)
		}
		ip, _ := ipAdd(networkIP(network), n)
		return cty.StringVal(ip.String()), nil
	},
})

var cidrNetmaskFunc = function.New(&function.Spec{
	Description: "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// subnet returns the netnum'th subnet of network with newbits more prefix bits.
func subnet(network *net.IPNet, newbits int, netnum *big.Int) (*net.IPNet, error) {
	ones, bits := network.Mask.Size()
	newOnes := ones + newbits
	if newbits < 0 || newOnes > bits {
		return nil, fmt.Errorf("insufficient address space to extend prefix of %d by %d", ones, newbits)
	}
	limit := new(big.Int).Lsh(big.NewInt(1), uint(newbits))
	if netnum.Sign() < 0 || netnum.Cmp(limit) >= 0 {
		return nil, fmt.Errorf("prefix extension of %d does not accommodate a subnet numbered %s", newbits, netnum)
	}
	offset := new(big.Int).Lsh(netnum, uint(bits-newOnes))
	ip, _ := ipAdd(networkIP(network), offset)
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(newOnes, bits)}, nil
}

var cidrSubnetFunc = function.New(&function.Spec{
	Description: "Calculates a subnet address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		netnum, acc := args[2].AsBigFloat().Int(nil)
		if acc != big.Exact {
			return cty.UnknownVal(cty.String), fmt.Errorf("netnum must be a whole number")
		}
		sn, err := subnet(network, newbits, netnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(sn.String()), nil
	},
})

var cidrSubnetsFunc = function.New(&function.Spec{
	Description: "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		ones, bits := network.Mask.Size()
		next := new(big.Int).SetBytes(networkIP(network)) // next free address
		out := make([]cty.Value, 0, len(args)-1)
		for i, a := range args[1:] {
			var newbits int
			if err := gocty.FromCtyValue(a, &newbits); err != nil {
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "invalid newbits value: %s", err)
			}
			if newbits < 1 || ones+newbits > bits {
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an IPv%d address", ones+newbits, map[int]int{32: 4, 128: 6}[bits])
			}
			size := new(big.Int).Lsh(big.NewInt(1), uint(bits-ones-newbits))
			// Align the next address up to this subnet's size.
			rem := new(big.Int).Mod(next, size)
			if rem.Sign() != 0 {
				next.Add(next, new(big.Int).Sub(size, rem))
			}
			end := new(big.Int).Add(next, size)
			last := new(big.Int).Add(new(big.Int).SetBytes(networkIP(network)), new(big.Int).Lsh(big.NewInt(1), uint(bits-ones)))
			if end.Cmp(last) > 0 {
				after := network.String()
				if len(out) > 0 {
					after = out[len(out)-1].AsString()
				}
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", ones+newbits, after)
			}
			ip := make(net.IP, len(networkIP(network)))
			next.FillBytes(ip)
			out = append(out, cty.StringVal((&net.IPNet{IP: ip, Mask: net.CIDRMask(ones+newbits, bits)}).String()))
			next = end
		}
		return cty.ListVal(out), nil
	},
})

// cidrContainsFunc is cidrcontains(prefix, ip_or_prefix): whether an
// address, or every address of a prefix, lies within prefix. Mixing IPv4
// and IPv6 is an error rather than false.
var cidrContainsFunc = function.New(&function.Spec{
	Description: "Determines whether a given IP address or an address prefix given in CIDR notation is within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		prefix, addr := args[0].AsString(), args[1].AsString()
		_, containing, err := net.ParseCIDR(prefix)
		if err != nil {
			return cty.UnknownVal(cty.Bool), err
		}
		first, last := net.ParseIP(addr), net.IP(nil)
		if first == nil {
			_, contained, err := net.ParseCIDR(addr)
			if err != nil {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid IP address or prefix: %s", addr)
			}
			first = contained.IP
			last = make(net.IP, len(first))
			for i := range first {
				last[i] = first[i] | ^contained.Mask[i]
			}
		}
		if (first.To4() == nil) != (containing.IP.To4() == nil) {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", prefix, addr)
		}
		in := containing.Contains(first)
		if last != nil {
			in = in && containing.Contains(last)
		}
		return cty.BoolVal(in), nil
	},
})

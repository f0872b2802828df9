package statefile

import "github.com/rig-iac/rig/internal/addrs"

// plainManagedAddr parses s when it is the canonical address of a managed
// resource of the root module written with ASCII names only ("type.name",
// the form nearly every recorded dependency has), without the general
// parser: ok is false for anything else (a module path, a data source, an
// instance key, other characters), which addrs.ParseAbsResourceStr parses.
func plainManagedAddr(s []byte) (addr addrs.AbsResource, ok bool) {
	dot := -1
	for i, c := range s {
		switch {
		case c == '.':
			if dot >= 0 {
				return addrs.AbsResource{}, false
			}
			dot = i
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9', c == '_', c == '-':
			// Not the first character of a name.
			if i == 0 || i == dot+1 {
				return addrs.AbsResource{}, false
			}
		default:
			return addrs.AbsResource{}, false
		}
	}
	if dot <= 0 || dot == len(s)-1 {
		return addrs.AbsResource{}, false
	}
	switch string(s[:dot]) {
	case "data", "ephemeral", "module":
		return addrs.AbsResource{}, false
	}
	str := string(s)
	return addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: str[:dot], Name: str[dot+1:]}}, true
}

// prevLookahead is how many entries of the last list prevDependency looks
// at for the next entry of the current one.
const prevLookahead = 4

// startList starts the decoding of a list: the one decoded last becomes
// the one its entries are looked for in.
func (d *decoder) startList() {
	if len(d.curDeps) > 0 {
		d.prevDeps, d.curDeps = d.curDeps, d.prevDeps
	}
	d.curDeps = d.curDeps[:0]
	d.prevNext = 0
}

// prevDependency finds s among the next few entries of the list decoded
// last, without a lookup by its text: the lists of neighbouring objects
// are sorted the same way and mostly hold the same addresses. ok is false
// when it is not there (dependency then finds it).
func (d *decoder) prevDependency(s []byte) (dependency, bool) {
	for j := d.prevNext; j < len(d.prevDeps) && j < d.prevNext+prevLookahead; j++ {
		if d.prevDeps[j].text == string(s) {
			d.prevNext = j + 1
			return d.prevDeps[j], true
		}
	}
	return dependency{}, false
}

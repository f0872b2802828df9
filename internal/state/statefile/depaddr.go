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

// listArenaBlock is the number of addresses each block of the decoder's
// arena of dependency lists holds (at least).
const listArenaBlock = 8192

// keepList copies list into the decoder's arena of dependency lists,
// blocks that many lists share (a state of distinct resources records a
// list of hundreds of entries for each), and returns the copy, capped so
// that appending to it never writes into the arena.
func (d *decoder) keepList(list []addrs.AbsResource) []addrs.AbsResource {
	if len(list) > cap(d.listArena)-len(d.listArena) {
		d.listArena = make([]addrs.AbsResource, 0, max(listArenaBlock, len(list)))
	}
	start := len(d.listArena)
	d.listArena = append(d.listArena, list...)
	return d.listArena[start:len(d.listArena):len(d.listArena)]
}

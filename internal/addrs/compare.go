package addrs

import "strings"

// Compare is Less as a three-way comparison, for slices.SortFunc: by
// instance, the current object before deposed ones.
func (o ObjectAddr) Compare(p ObjectAddr) int {
	if c := o.Instance.Compare(p.Instance); c != 0 {
		return c
	}
	return strings.Compare(string(o.Deposed), string(p.Deposed))
}

// Compare orders providers by their source addresses.
func (p Provider) Compare(o Provider) int { return strings.Compare(p.String(), o.String()) }

// Compare orders provider configurations by module instance, provider,
// then alias (the default configuration first).
func (pc AbsProviderConfig) Compare(o AbsProviderConfig) int {
	if c := pc.Module.Compare(o.Module); c != 0 {
		return c
	}
	if c := pc.Provider.Compare(o.Provider); c != 0 {
		return c
	}
	if c := strings.Compare(pc.Alias, o.Alias); c != 0 {
		return c
	}
	return pc.Key.Compare(o.Key)
}

// Compare orders module paths by their call names, the root first.
func (m Module) Compare(o Module) int {
	return ModuleInstance(m).Compare(ModuleInstance(o))
}

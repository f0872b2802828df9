package statemgr

import (
	"encoding/binary"
	"hash/maphash"
)

// contentSum is the digest of a state's content. It only tells, within one
// process, whether a snapshot is the one last written, so that an
// unchanged state is not written again: it is never stored, and need not
// resist anyone crafting a collision. It is two 64-bit hashes under seeds
// chosen at random for the process (hash/maphash, several times faster
// than SHA-256 over the megabytes of a large state, and on the path of
// every snapshot's write): a changed state taken for the same one, the only
// costly mistake, has a chance of about 2⁻¹²⁸.
type contentSum [16]byte

var contentSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// contentHash computes a contentSum from what is written to it, in any
// pieces: the same bytes give the same sum however they are cut.
type contentHash struct {
	a, b maphash.Hash
}

func newContentHash() *contentHash {
	h := &contentHash{}
	h.a.SetSeed(contentSeeds[0])
	h.b.SetSeed(contentSeeds[1])
	return h
}

func (h *contentHash) Write(p []byte) {
	h.a.Write(p)
	h.b.Write(p)
}

func (h *contentHash) sum() contentSum {
	var s contentSum
	binary.LittleEndian.PutUint64(s[:8], h.a.Sum64())
	binary.LittleEndian.PutUint64(s[8:], h.b.Sum64())
	return s
}

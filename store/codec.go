package store

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
)

// The records are stored in a compact binary form: a leading format byte, then the fields in a
// fixed order. Integers are varints, strings and byte strings carry a uvarint length, times are
// a varint of Unix seconds and a uvarint of nanoseconds. Every decoder re-encodes what it read
// and refuses the input unless the bytes are identical, so each record has exactly one encoding
// (the chain hashes those bytes).

// enc appends fields to a buffer.
type enc struct{ b []byte }

func (e *enc) u8(v uint8)       { e.b = append(e.b, v) }
func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) fixed(p []byte)   { e.b = append(e.b, p...) }
func (e *enc) bytes(p []byte)   { e.uvarint(uint64(len(p))); e.b = append(e.b, p...) }
func (e *enc) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) time(t time.Time) { e.varint(t.Unix()); e.uvarint(uint64(t.Nanosecond())) }
func (e *enc) digest(d Digest)  { e.b = append(e.b, d[:]...) }
func (e *enc) boolean(v bool)   { e.u8(b2u(v)) }
func (e *enc) strs(ss []string) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// errShort and errBad are the decoder's internal failures; the caller wraps them in ErrCorrupt.
var (
	errShort = errors.New("truncated")
	errBad   = errors.New("malformed field")
)

// dec reads fields from a buffer. The first failure sticks; later reads return zero values.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *dec) u8() uint8 {
	if d.err != nil || len(d.b) < 1 {
		d.fail(errShort)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *dec) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail(errBad)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail(errBad)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// uint32v reads a uvarint that must fit 32 bits.
func (d *dec) uint32v() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		d.fail(errBad)
		return 0
	}
	return uint32(v)
}

func (d *dec) fixed(n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.fail(errShort)
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

// bytes returns a copy (the input may be memory owned by bbolt).
func (d *dec) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail(errShort)
		return nil
	}
	if n == 0 {
		return nil
	}
	p := make([]byte, n)
	copy(p, d.b[:n])
	d.b = d.b[n:]
	return p
}

func (d *dec) str() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.fail(errShort)
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) strs() []string {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) { // every string takes at least one byte
		d.fail(errShort)
		return nil
	}
	if n == 0 {
		return nil
	}
	ss := make([]string, 0, n)
	for range n {
		ss = append(ss, d.str())
	}
	return ss
}

func (d *dec) time() time.Time {
	sec := d.varint()
	nsec := d.uvarint()
	if d.err != nil {
		return time.Time{}
	}
	if nsec >= 1e9 {
		d.fail(errBad)
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

func (d *dec) digest() Digest {
	var v Digest
	copy(v[:], d.fixed(len(v)))
	return v
}

func (d *dec) boolean() bool {
	switch d.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail(errBad)
	return false
}

// done reports the first failure, or trailing bytes.
func (d *dec) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	return d.err
}

// be64 encodes an id as a big-endian key, so keys sort in numeric order.
func be64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// lengthPrefixed joins fields, each preceded by its 4-byte big-endian length, so that no two
// different field lists give the same bytes. Used for associated data, commitments and the
// chain's first link.
func lengthPrefixed(fields ...[]byte) []byte {
	n := 0
	for _, f := range fields {
		n += 4 + len(f)
	}
	out := make([]byte, 0, n)
	for _, f := range fields {
		out = binary.BigEndian.AppendUint32(out, uint32(len(f)))
		out = append(out, f...)
	}
	return out
}

func beUint64(k []byte) uint64 { return binary.BigEndian.Uint64(k) }

func (e *enc) uvarintBytes(v uint64) []byte { e.uvarint(v); return e.b }

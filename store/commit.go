package store

// Commitments to secret moves. This file needs no database: the game service and the
// `bottlepost verify` command use it on exported games.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// Side is the side that made a move: White or Black.
type Side uint8

// The two sides.
const (
	White Side = 0
	Black Side = 1
)

// String returns "white" or "black".
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("side(%d)", uint8(s))
}

func (s Side) valid() bool { return s == White || s == Black }

// Digest is a 32-byte value quoted to players: a commitment or a chain head.
type Digest [32]byte

// String returns the digest as 64 lowercase hex digits.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// Short returns the first 16 hex digits (64 bits), for subject lines and record margins.
// It identifies a digest for a reader; checks compare the full digest.
func (d Digest) Short() string { return hex.EncodeToString(d[:8]) }

// IsZero reports whether d is all zeros (no commitment).
func (d Digest) IsZero() bool { return d == Digest{} }

// MarshalText encodes d as lowercase hex.
func (d Digest) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText decodes 64 hex digits (either case).
func (d *Digest) UnmarshalText(b []byte) error {
	v, err := ParseDigest(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDigest decodes 64 hex digits (either case).
func ParseDigest(s string) (Digest, error) {
	var d Digest
	if len(s) != 2*len(d) {
		return d, fmt.Errorf("store: digest %q: want %d hex digits, have %d: %w", s, 2*len(d), len(s), ErrInvalid)
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return Digest{}, fmt.Errorf("store: digest %q is not hex: %w", s, ErrInvalid)
	}
	return d, nil
}

// Opening reveals a commitment: the HMAC key and the exact move text. Until the game ends it
// is as secret as the move itself.
type Opening struct {
	Key  [32]byte
	Text string
}

type openingJSON struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// MarshalJSON encodes the opening as {"key": hex, "text": text}.
func (o Opening) MarshalJSON() ([]byte, error) {
	return json.Marshal(openingJSON{Key: hex.EncodeToString(o.Key[:]), Text: o.Text})
}

// UnmarshalJSON decodes {"key": hex, "text": text}.
func (o *Opening) UnmarshalJSON(b []byte) error {
	var j openingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	k, err := ParseDigest(j.Key)
	if err != nil {
		return fmt.Errorf("store: opening key: %w", err)
	}
	o.Key, o.Text = k, j.Text
	return nil
}

const commitDomain = "bottlepost/commit/v1"

// Commit commits to a secret move: it draws 32 fresh bytes from rand as the HMAC-SHA256 key
// and returns the MAC over the length-prefixed (domain, game, ply, side, move text), together
// with the opening that proves it later. The commitment reveals nothing about the move while
// the key stays secret; an unkeyed hash would not do, as a position has only a few dozen moves.
func Commit(game uint64, ply uint32, side Side, moveText string, rand io.Reader) (Digest, Opening, error) {
	var o Opening
	if _, err := io.ReadFull(rand, o.Key[:]); err != nil {
		return Digest{}, Opening{}, fmt.Errorf("store: commitment key: %w", err)
	}
	o.Text = moveText
	return commitment(game, ply, side, o), o, nil
}

// VerifyCommitment reports whether the opening o opens commitment c for the move of side at
// ply in game. It compares in constant time.
func VerifyCommitment(game uint64, ply uint32, side Side, c Digest, o Opening) bool {
	want := commitment(game, ply, side, o)
	return hmac.Equal(want[:], c[:])
}

func commitment(game uint64, ply uint32, side Side, o Opening) Digest {
	m := hmac.New(sha256.New, o.Key[:])
	m.Write(lengthPrefixed(
		[]byte(commitDomain),
		be64(game),
		binary.BigEndian.AppendUint32(nil, ply),
		[]byte{byte(side)},
		[]byte(o.Text),
	))
	var d Digest
	m.Sum(d[:0])
	return d
}

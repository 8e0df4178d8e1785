package store

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCommitment(t *testing.T) {
	c, o, err := Commit(7, 12, Black, "Sd4~f5", strings.NewReader(strings.Repeat("\x42", 32)))
	if err != nil {
		t.Fatal(err)
	}
	// Golden values, computed independently with Python's hmac and hashlib. The format of commitments and chain starts is part of every export and
	// every receipt a player holds; it must never change silently.
	const golden = "a9beb9c75af16bb1cbb47466e296bfcd718dab9632c9757a7aea688a76c46381"
	if c.String() != golden {
		t.Logf("commitment %s (update the golden value only with a new commitment domain)", c)
		t.Fail()
	}
	if want := "05e041bf8a75267a318e4ca85546ff39303c4aae003b4111eb983efc95fed15a"; ChainStart(1).String() != want {
		t.Logf("chain start of game 1: %s", ChainStart(1))
		t.Fail()
	}
	if !VerifyCommitment(7, 12, Black, c, o) {
		t.Fatal("the opening does not verify")
	}
	other := o
	other.Key[0] ^= 1
	tests := []struct {
		name string
		game uint64
		ply  uint32
		side Side
		o    Opening
	}{
		{"other text", 7, 12, Black, Opening{Key: o.Key, Text: "Sd4~f6"}},
		{"other key", 7, 12, Black, other},
		{"other game", 8, 12, Black, o},
		{"other ply", 7, 13, Black, o},
		{"other side", 7, 12, White, o},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if VerifyCommitment(tc.game, tc.ply, tc.side, c, tc.o) {
				t.Error("verified")
			}
		})
	}
	c2, o2, _ := Commit(7, 12, Black, "Sd4~f5", bytes.NewReader(bytes.Repeat([]byte{1}, 32)))
	if c2 == c || o2.Key == o.Key {
		t.Error("fresh key material gave the same commitment")
	}
	if _, _, err := Commit(7, 12, Black, "x", iotest.ErrReader(bytes.ErrTooLarge)); err == nil {
		t.Error("Commit ignored a failing random source")
	}
}

func TestDigestText(t *testing.T) {
	d := ChainStart(3)
	s := d.String()
	if len(s) != 64 || s != strings.ToLower(s) || d.Short() != s[:16] {
		t.Errorf("String %q Short %q", s, d.Short())
	}
	for _, in := range []string{s, strings.ToUpper(s)} {
		if got, err := ParseDigest(in); err != nil || got != d {
			t.Errorf("ParseDigest(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", s[:63], s + "0", "g" + s[1:]} {
		_, err := ParseDigest(in)
		wantErr(t, err, ErrInvalid)
	}
}

package store

import (
	"bytes"
	"strings"
	"testing"
)

// The decoders read bytes from the file (and VerifyChain reads them from exports): whatever
// they are given, they must not panic, and what they accept must encode back to the input.

func FuzzDecodeRecord(f *testing.F) {
	for _, tc := range codecCases()[:2] {
		f.Add(tc.encode())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b)
		if err == nil && !bytes.Equal(encodeRecord(r), b) {
			t.Fatalf("accepted a non-canonical record %x", b)
		}
		VerifyChain(1, []Link{{Body: b}}) // must not panic either
	})
}

func FuzzDecodeGame(f *testing.F) {
	f.Add(codecCases()[3].encode())
	f.Add(codecCases()[8].encode()) // listed under a match key (format 2)
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := decodeGame(b)
		if err == nil && !bytes.Equal(encodeGame(g, g.State), b) {
			t.Fatalf("accepted a non-canonical game %x", b)
		}
	})
}

func FuzzDecodeOther(f *testing.F) {
	cases := codecCases()
	for which, i := range []int{2, 4, 5, 6, 7} { // sealed part, player, token, mail, processed
		f.Add(uint8(which), cases[i].encode())
	}
	f.Add(uint8(1), cases[9].encode()) // a player with a deadline (format 2)
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		var again []byte
		switch which % 5 {
		case 0:
			if p, err := decodeSecret(b); err == nil {
				again = encodeSecret(p)
			}
		case 1:
			if p, err := decodePlayer(b); err == nil {
				again = encodePlayer(p)
			}
		case 2:
			if tk, err := decodeToken(b); err == nil {
				again = encodeToken(tk)
			}
		case 3:
			if m, err := decodeMail(b); err == nil {
				again = encodeMail(m)
			}
		case 4:
			if at, err := decodeProcessed(b); err == nil {
				again = encodeProcessed(at)
			}
		}
		if again != nil && !bytes.Equal(again, b) {
			t.Fatalf("accepted a non-canonical value %x", b)
		}
		decodeDeadlineKey(b)
	})
}

// FuzzParseReceipt: a receipt as typed by a player never panics, and one accepted prints
// back as its one form (up to spaces and the case of the hex digits).
func FuzzParseReceipt(f *testing.F) {
	f.Add("14:" + strings.Repeat("ab", 32))
	f.Add(" 0:" + strings.Repeat("0", 64) + " ")
	f.Add("4294967296:" + strings.Repeat("f", 64))
	f.Add("01:" + strings.Repeat("A", 64))
	f.Add(strings.Repeat("C", 64)) // a head alone, as older mails quoted it
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseReceipt(s)
		if err != nil {
			return
		}
		if got := r.String(); !strings.EqualFold(got, strings.TrimSpace(s)) {
			t.Fatalf("ParseReceipt(%q) = %s", s, got)
		}
		if again, err := ParseReceipt(r.String()); err != nil || again != r {
			t.Fatalf("round trip of %s: %v %v", r, again, err)
		}
	})
}

package record

import (
	"bytes"
	"testing"
)

// FuzzVerify feeds the export reader anything: it must not panic, and a file it accepts is
// byte for byte the one the verified record gives (so nothing in it went unchecked).
func FuzzVerify(f *testing.F) {
	for _, name := range []string{"export-v1-chess.pgn", "export-v1-seachess.pgn", "verify-example.pgn"} {
		if b, err := readTestdata(name); err == nil {
			f.Add(b)
			f.Add(b[:len(b)/2])
		}
	}
	f.Add([]byte(`{"format":"bottlepost-export/1","game":{},"records":[]}`))
	f.Add([]byte("[Event \"x\"]\n\n1. e4 *\n\n{bottlepost-export/1\n}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := Verify(bytes.NewReader(b))
		if err != nil {
			return
		}
		norm := normalizeFile(b)
		x, pgn, err := readExport(norm)
		if err != nil {
			t.Fatalf("verified, but the reader refuses it: %v", err)
		}
		if pgn == nil {
			return // the store's JSON
		}
		want, err := render(x, formMarked)
		before, errBefore := render(x, formPlain)
		if err != nil || errBefore != nil || !bytes.Equal(want, norm) && !bytes.Equal(before, norm) {
			t.Fatalf("verified a file that is not the one its record gives in either form (%v, %v)", err, errBefore)
		}
		_ = res.Anchoring()
	})
}

// FuzzRecordText: the start and end records' texts never panic the readers, and a text
// they accept is the one encoding of what they read.
func FuzzRecordText(f *testing.F) {
	f.Add(Start{Variant: "seachess", Ruleset: "standard", Seed: 42, Time: "3d"}.Text())
	f.Add(End{Result: "1/2-1/2", Status: "finished", Termination: "drawn: draw agreed", Players: [2]string{"Ann Bö", "bob"},
		Variant: "chess", Ruleset: "fide", Time: "10/50d"}.Text())
	f.Add("start ruleset=fide seed=7")
	f.Add("1-0 White wins: Black resigned")
	f.Add("end result=%2A status=aborted termination=x white= black= variant=v ruleset=r time=")
	f.Fuzz(func(t *testing.T, s string) {
		if st, err := parseStart(s); err == nil && !st.Old && st.Text() != s {
			t.Fatalf("start record %q read as %+v, which is written %q", s, st, st.Text())
		}
		if e, err := parseEnd(s, false); err == nil && e.Text() != s {
			t.Fatalf("end record %q read as %+v, which is written %q", s, e, e.Text())
		}
		parseEnd(s, true)
	})
}

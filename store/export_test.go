package store

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestExport(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	var receipts []Receipt // what the players were sent
	for n := range 10 {
		err := st.Update(func(tx *Tx) error {
			r, err := accept(tx, g.ID, n, t0)
			receipts = append(receipts, Receipt{Records: r.Index + 1, Head: r.Hash})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	err := st.View(func(tx *Tx) error { _, err := tx.Export(g.ID); return err })
	wantErr(t, err, ErrInvalid) // still active: secret moves stay sealed

	if err := st.Update(func(tx *Tx) error { return finish(tx, g.ID, t0) }); err != nil {
		t.Fatal(err)
	}
	var x *Export
	if err := st.View(func(tx *Tx) (err error) { x, err = tx.Export(g.ID); return err }); err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"format": "bottlepost-export/1"`, `"players": [`, `"Alice"`, `"opening": {`, `"key": "`,
		`"text": "` + moveText(3) + `"`, `"head": "` + x.Game.Head.String() + `"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("export lacks %s", want)
		}
	}
	if strings.Contains(string(data), "@example.org") {
		t.Error("the export holds the players' addresses")
	}
	load := func() *Export {
		var y Export
		if err := json.Unmarshal(data, &y); err != nil {
			t.Fatal(err)
		}
		return &y
	}
	if err := VerifyExport(load(), receipts...); err != nil {
		t.Fatalf("VerifyExport: %v", err)
	}
	if len(x.Records) != 11 || x.Records[3].Opening == nil || x.Records[3].Text != moveText(3) || x.Records[10].Text != "resigns" {
		t.Fatalf("records %+v", x.Records)
	}

	tests := []struct {
		name   string
		tamper func(*Export) []Receipt
	}{
		{"opening for another move", func(y *Export) []Receipt {
			y.Records[3].Opening.Text, y.Records[3].Text = moveText(4), moveText(4)
			return nil
		}},
		{"opening key changed", func(y *Export) []Receipt { y.Records[5].Opening.Key[0] ^= 1; return nil }},
		{"opening missing", func(y *Export) []Receipt { y.Records[5].Opening = nil; return nil }},
		{"revealed text differs from the opening", func(y *Export) []Receipt { y.Records[5].Text = "Qxf7"; return nil }},
		{"public text rewritten", func(y *Export) []Receipt { y.Records[2].Text = "Qxf7"; return nil }},
		{"readable ply rewritten", func(y *Export) []Receipt { y.Records[2].Ply = 9; return nil }},
		{"commitment rewritten", func(y *Export) []Receipt { y.Records[2].Commitment = &Digest{1}; return nil }},
		{"record removed", func(y *Export) []Receipt { y.Records = append(y.Records[:4], y.Records[5:]...); return nil }},
		{"last records dropped, head rewritten", func(y *Export) []Receipt {
			y.Records = y.Records[:8]
			y.Game.Records, y.Game.Head = 8, y.Records[7].Hash
			return receipts
		}},
		{"format", func(y *Export) []Receipt { y.Format = "other"; return nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := load()
			err := VerifyExport(y, tc.tamper(y)...)
			if !errors.Is(err, ErrTampered) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("VerifyExport = %v", err)
			}
			t.Log(err)
		})
	}
}

package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestConditionals(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	g := newGame(t, st, false)
	const secret = "if e5 then CONDITIONALMARKER-Nf3"
	tests := []struct {
		name string
		run  func(tx *Tx) error
		want error
	}{
		{"store White's", func(tx *Tx) error { return tx.PutConditionals(g.ID, White, []byte(secret)) }, nil},
		{"read them back", func(tx *Tx) error {
			v, err := tx.Conditionals(g.ID, White)
			if err == nil && string(v) != secret {
				t.Errorf("read %q, want %q", v, secret)
			}
			return err
		}, nil},
		{"Black has none", func(tx *Tx) error {
			v, err := tx.Conditionals(g.ID, Black)
			if v != nil {
				t.Errorf("Black's: %q", v)
			}
			return err
		}, nil},
		{"no such side", func(tx *Tx) error { return tx.PutConditionals(g.ID, Side(2), []byte("x")) }, ErrInvalid},
		{"no such game", func(tx *Tx) error { return tx.PutConditionals(g.ID+10, White, []byte("x")) }, ErrNotFound},
		{"too big", func(tx *Tx) error { return tx.PutConditionals(g.ID, White, make([]byte, maxConditional+1)) }, ErrInvalid},
		{"deleting nothing is fine", func(tx *Tx) error { return tx.PutConditionals(g.ID, Black, nil) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := st.Update(tc.run)
			if tc.want == nil && err != nil {
				t.Fatal(err)
			}
			if tc.want != nil {
				wantErr(t, err, tc.want)
			}
		})
	}
	if err := st.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}

	// Sealed: neither the live file nor a backup holds the text.
	var buf bytes.Buffer
	if _, err := st.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	live, _ := os.ReadFile(filepath.Join(dir, "game.db"))
	for name, file := range map[string][]byte{"backup": buf.Bytes(), "database": live} {
		if bytes.Contains(file, []byte("CONDITIONALMARKER")) {
			t.Errorf("%s holds the conditional moves in clear", name)
		}
	}

	// Moved to the other side's key, the value does not open.
	err := st.Update(func(tx *Tx) error {
		b := tx.bucket(bucketConditionals)
		v := bytes.Clone(b.Get(conditionalKey(g.ID, White)))
		return tx.put(b, conditionalKey(g.ID, Black), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(func(tx *Tx) error { _, err := tx.Conditionals(g.ID, Black); return err })
	wantErr(t, err, ErrTampered)
	wantErr(t, st.Verify(t.Context()), ErrTampered)

	// Finished and archived: PutConditionals refuses, Archive deletes them.
	err = st.Update(func(tx *Tx) error {
		if err := tx.PutConditionals(g.ID, Black, nil); err != nil {
			return err
		}
		if err := finish(tx, g.ID, t0); err != nil {
			return err
		}
		wantErr(t, tx.PutConditionals(g.ID, Black, []byte("x")), ErrInvalid)
		return tx.Archive(g.ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(func(tx *Tx) error {
		v, err := tx.Conditionals(g.ID, White)
		if v != nil {
			t.Errorf("conditional moves outlived the game: %q", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyConditionalsOfFinishedGame: a value left for a game that ended is reported.
func TestVerifyConditionalsOfFinishedGame(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	err := st.Update(func(tx *Tx) error {
		if err := tx.PutConditionals(g.ID, Black, []byte("if (h) then Ce5-M")); err != nil {
			return err
		}
		return finish(tx, g.ID, t0) // finished, not archived: the service must have cleared them
	})
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, st.Verify(t.Context()), ErrCorrupt)
}

package store

import (
	"errors"
	"fmt"
	"testing"
)

// TestGameIDs pages through active and archived games both ways.
func TestGameIDs(t *testing.T) {
	st := openTest(t, t.TempDir())
	for range 7 {
		newGame(t, st, false)
	}
	for _, id := range []uint64{2, 4, 5} {
		err := st.Update(func(tx *Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			g.Status, g.Result = StatusFinished, "1-0"
			if err := tx.PutGame(g); err != nil {
				return err
			}
			return tx.Archive(id)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		archived bool
		from     uint64
		desc     bool
		limit    int
		want     string
	}{
		{"active from the start", false, 0, false, 10, "[1 3 6 7]"},
		{"active after 3", false, 3, false, 10, "[6 7]"},
		{"active, a short page", false, 0, false, 2, "[1 3]"},
		{"active newest first", false, 0, true, 3, "[7 6 3]"},
		{"active before 6", false, 6, true, 10, "[3 1]"},
		{"active before a missing id", false, 5, true, 10, "[3 1]"},
		{"active before an id past the end", false, 100, true, 1, "[7]"},
		{"active after the last", false, 7, false, 10, "[]"},
		{"active after the largest id", false, ^uint64(0), false, 10, "[]"},
		{"archived newest first", true, 0, true, 10, "[5 4 2]"},
		{"archived before 4", true, 4, true, 10, "[2]"},
		{"archived before the first", true, 2, true, 10, "[]"},
		{"archived ascending", true, 2, false, 10, "[4 5]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := st.View(func(tx *Tx) error {
				ids, err := tx.GameIDs(tc.archived, tc.from, tc.desc, tc.limit)
				if err != nil {
					return err
				}
				if got := fmt.Sprint(ids); got != tc.want && !(tc.want == "[]" && len(ids) == 0) {
					t.Errorf("got %s, want %s", got, tc.want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, limit := range []int{0, -1, MaxPage + 1} {
		err := st.View(func(tx *Tx) error { _, err := tx.GameIDs(false, 0, false, limit); return err })
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("limit %d: got %v, want ErrInvalid", limit, err)
		}
	}
}

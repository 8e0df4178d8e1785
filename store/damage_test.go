package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/boltdamage"
)

// TestDamagedPageIsAnErrorNamingTheGame: a damaged page of one game's log
// makes bbolt panic when it is reached. Every entry point (View, Update,
// Batch, Verify) returns an error naming that game instead (a *GameError,
// ErrCorrupt), the store stays usable, and the other game is untouched.
func TestDamagedPageIsAnErrorNamingTheGame(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	ok := newGame(t, st, false)     // game 1: short log, on pages of its own
	damaged := newGame(t, st, true) // game 2: a log of many pages, the last one damaged
	for n := range 300 {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, damaged.ID, n, t0); return err }); err != nil {
			t.Fatal(err)
		}
	}
	for n := range 4 {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, ok.ID, n, t0); return err }); err != nil {
			t.Fatal(err)
		}
	}
	page, err := boltdamage.LastLeafOf(st.Path(), be64(damaged.ID))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("damaged page %d", page)

	tests := []struct {
		name string
		call func(fn func(*Tx) error) error
	}{
		{"View", st.View},
		{"Update", st.Update},
		{"Batch", st.Batch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(func(tx *Tx) error { _, err := tx.Log(damaged.ID); return err })
			if DamagedGame(err) != damaged.ID || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "game 2") {
				t.Fatalf("reading the damaged game: %v (game %d), want an error naming game 2", err, DamagedGame(err))
			}
			err = tt.call(func(tx *Tx) error {
				if _, err := tx.Log(ok.ID); err != nil {
					return err
				}
				if tx.tx.Writable() {
					_, err := accept(tx, ok.ID, int(mustGame(t, tx, ok.ID).Records), t0)
					return err
				}
				return nil
			})
			if err != nil {
				t.Fatalf("the other game: %v", err)
			}
		})
	}
	err = st.Verify(context.Background())
	if err == nil || !strings.Contains(err.Error(), "store: game 2:") {
		t.Fatalf("Verify: %v, want a problem of game 2", err)
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		t.Logf("problem: %v", e)
		if strings.Contains(e.Error(), "game 1:") {
			t.Errorf("Verify blames game 1: %v", e)
		}
	}
}

func mustGame(t *testing.T, tx *Tx, id uint64) *Game {
	g, err := tx.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// A game stored and its log appended in one transaction, then read back
// in another: a secret move is sealed and committed to, and the chain
// head moves with every record.
func Example() {
	dir, err := os.MkdirTemp("", "bottlepost-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "bottlepost.db"), store.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var id uint64
	err = st.Update(func(tx *store.Tx) error {
		alice := &store.Player{Address: "alice@example.org", Created: now}
		bob := &store.Player{Address: "bob@example.org", Created: now}
		for _, p := range []*store.Player{alice, bob} {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		g := &store.Game{Variant: "seachess", Ruleset: "standard", Status: store.StatusActive, Hidden: true,
			State: []byte("state"), Created: now, Updated: now,
			Seats: [2]store.Seat{{Player: alice.ID, Address: alice.Address}, {Player: bob.ID, Address: bob.Address}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		if _, err := tx.Append(g, store.Entry{Kind: store.KindMove, Side: store.White, Text: "Sd1v-e3", Secret: true, Public: "(h)", At: now}); err != nil {
			return err
		}
		id = g.ID
		return tx.PutGame(g)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = st.View(func(tx *store.Tx) error {
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		for _, r := range log {
			fmt.Printf("record %d: %s, secret %v, committed %v\n", r.Index, r.Public, r.Secret, !r.Commitment.IsZero())
		}
		p, err := tx.PlayerByAddress("Bob@Example.org")
		if err != nil {
			return err
		}
		fmt.Println("found by address:", p.Address)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// record 0: (h), secret true, committed true
	// found by address: bob@example.org
}

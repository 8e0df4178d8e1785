package game_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
)

// One message in, its effects out: a stranger writes to the service's
// address; Handle commits, in one transaction, the welcome mail in the
// outbox and the message id (so the same message again does nothing).
func ExampleService_Handle() {
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
	svc, err := game.New(game.Config{Address: "games@bottlepost.example", Name: "bottlepost"},
		game.Options{Store: st, Clock: func() time.Time { return now }, Rand: rand.NewChaCha8([32]byte{1})})
	if err != nil {
		fmt.Println(err)
		return
	}
	in := &game.Incoming{MessageID: "1@example.org", From: "alice@example.org",
		Recipients: []string{"games@bottlepost.example"}, Subject: "hello", Lines: []string{"hi"}}
	for range 2 {
		res, err := svc.Handle(in)
		fmt.Printf("duplicate %v, refused %q, mails %d, err %v\n", res.Duplicate, res.Refused, res.Mails, err)
	}
	err = st.View(func(tx *store.Tx) error {
		mails, err := tx.PendingMail(now, 0)
		for _, m := range mails {
			parsed, err := mailfmt.Parse(bytes.NewReader(m.Data), 1<<20)
			if err != nil {
				return err
			}
			fmt.Println("to", m.To, "subject:", parsed.Subject)
		}
		return err
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// duplicate false, refused "no reply token", mails 1, err <nil>
	// duplicate true, refused "", mails 0, err <nil>
	// to [alice@example.org] subject: Welcome to bottlepost
}
